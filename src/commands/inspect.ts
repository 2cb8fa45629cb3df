import { Either } from "effect"
import { decodeAccount } from "../ntbundle/accounts.ts"
import { fromBase64, fromHex } from "../ntbundle/bytes.ts"
import { decodeEvent } from "../ntbundle/events.ts"
import { toJson } from "../ntbundle/json.ts"
import { decodeTransactionBytes } from "../ntbundle/txDecode.ts"
import { EXIT_USAGE, type Command } from "./Command.ts"

const HELP = `usage: vault-gateway inspect <account|event|tx> <data> [--hex|--base64] [--pretty]

Decodes ntbundle data offline and prints one JSON object on stdout.

  account <base64|hex>  account data incl. the 8-byte discriminator
                        -> {"account": "<Type>", "data": {...}}
  event <base64>        an event as logged by the program ("Program data: " prefix optional)
                        -> {"event": "<Name>", "data": {...}}
  tx <base64>           a wire transaction, legacy or v0
                        -> {"version", "feePayer", "blockhash", "signatures", "instructions", ...}

Account data is read as hex when it is an even number of hex digits (optional 0x), else as
standard base64; --hex or --base64 forces one. JSON: u64/i64/u128/i128 as decimal strings, byte
arrays as lowercase hex, addresses in base58, u8/u32/f32 as numbers, field names in camelCase.
Bad input exits with status 2 and one line on stderr.
`

type Encoding = "hex" | "base64" | "auto"

const HEX = /^[0-9a-fA-F]*$/

const parseBytes = (text: string, encoding: Encoding): Either.Either<Uint8Array, string> => {
  const trimmed = text.trim()
  const hex = trimmed.startsWith("0x") || trimmed.startsWith("0X") ? trimmed.slice(2) : trimmed
  if (encoding === "hex" || (encoding === "auto" && hex.length > 0 && hex.length % 2 === 0 && HEX.test(hex))) {
    return hex.length % 2 === 0 && HEX.test(hex)
      ? Either.right(fromHex(hex))
      : Either.left("the data is not hex (an even number of 0-9a-f digits)")
  }
  const bytes = fromBase64(trimmed)
  return bytes === undefined
    ? Either.left(encoding === "base64" ? "the data is not standard base64" : "the data is neither hex nor standard base64")
    : Either.right(bytes)
}

const PROGRAM_DATA_PREFIX = "Program data: "

/** The JSON `inspect <kind> <data>` prints, or the one-line reason it cannot. */
export const inspectToJson = (
  kind: string,
  text: string,
  encoding: Encoding = "auto"
): Either.Either<unknown, string> => {
  switch (kind) {
    case "account":
      return parseBytes(text, encoding).pipe(
        Either.flatMap((bytes) => Either.mapLeft(decodeAccount(bytes), (error) => error.message)),
        Either.map((account) => ({ account: account.type, data: toJson(account.data) }))
      )
    case "event": {
      const payload = text.trim().startsWith(PROGRAM_DATA_PREFIX) ? text.trim().slice(PROGRAM_DATA_PREFIX.length) : text
      return parseBytes(payload, encoding === "auto" ? "base64" : encoding).pipe(
        Either.flatMap((bytes) => Either.mapLeft(decodeEvent(bytes), (error) => error.message)),
        Either.map((event) => ({ event: event.name, data: toJson(event.data) }))
      )
    }
    case "tx":
      return parseBytes(text, encoding === "auto" ? "base64" : encoding).pipe(
        Either.flatMap((bytes) => Either.mapLeft(decodeTransactionBytes(bytes), (error) => error.message)),
        Either.map(toJson)
      )
    default:
      return Either.left(`unknown kind '${kind}' (expected account, event or tx)`)
  }
}

const fail = (message: string): number => {
  process.stderr.write(`vault-gateway inspect: ${message.replace(/\s+/g, " ")}\n`)
  return EXIT_USAGE
}

export const inspect: Command = {
  run: async (args) => {
    if (args.includes("--help") || args.includes("-h")) {
      process.stdout.write(HELP)
      return 0
    }
    const flags = args.filter((arg) => arg.startsWith("--"))
    const positional = args.filter((arg) => !arg.startsWith("--"))
    const unknownFlag = flags.find((flag) => !["--hex", "--base64", "--pretty"].includes(flag))
    if (unknownFlag !== undefined) return fail(`unknown option '${unknownFlag}' (see --help)`)
    if (flags.includes("--hex") && flags.includes("--base64")) return fail("--hex and --base64 exclude each other")
    const [kind, data, ...extra] = positional
    if (kind === undefined || data === undefined) return fail("expected <account|event|tx> <data> (see --help)")
    if (extra.length > 0) return fail(`unexpected argument '${extra[0]}'`)
    const encoding: Encoding = flags.includes("--hex") ? "hex" : flags.includes("--base64") ? "base64" : "auto"
    return Either.match(inspectToJson(kind, data, encoding), {
      onLeft: fail,
      onRight: (json) => {
        process.stdout.write(JSON.stringify(json, null, flags.includes("--pretty") ? 2 : undefined) + "\n")
        return 0
      }
    })
  }
}

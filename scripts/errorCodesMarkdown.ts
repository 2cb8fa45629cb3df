// Renders the README's error-code tables from the registry (src/errors/codes.json). The README keeps
// the rendered text between the two markers; scripts/gen-error-codes.ts writes it there and
// test/errors/codes.test.ts checks it is current.
import { ERROR_CODES, type ErrorCode, type ErrorCodeEntry } from "../src/errors/codes.ts"

export const START_MARKER = "<!-- error-codes: generated from src/errors/codes.json by scripts/gen-error-codes.ts; do not edit -->"
export const END_MARKER = "<!-- /error-codes -->"

const entries = (Object.entries(ERROR_CODES) as Array<[ErrorCode, ErrorCodeEntry]>)

const row = (cells: ReadonlyArray<string>): string => `| ${cells.join(" | ")} |`

const httpTable = (): ReadonlyArray<string> => {
  const http = entries.filter(([, entry]) => entry.status !== undefined)
  // by status; registry order (the order codes were added) within one status
  const byStatus = [...http].sort(([, a], [, b]) => a.status! - b.status!)
  return [
    row(["code", "HTTP", "meaning"]),
    row(["---", "---", "---"]),
    ...byStatus.map(([code, entry]) => row([`\`${code}\``, String(entry.status), entry.meaning]))
  ]
}

const refusalTable = (): ReadonlyArray<string> => {
  const places = (entry: ErrorCodeEntry): ReadonlyArray<string> => [
    ...(entry.rejection === true ? ["`rejectionReasons`"] : []),
    ...(entry.attribution === true ? ["`attribution.reason`"] : [])
  ]
  return [
    row(["code", "in", "meaning"]),
    row(["---", "---", "---"]),
    ...entries
      .filter(([, entry]) => places(entry).length > 0)
      .map(([code, entry]) => row([`\`${code}\``, places(entry).join(", "), entry.meaning]))
  ]
}

/** The text between the markers (markers included). */
export const renderErrorCodeSection = (): string =>
  [
    START_MARKER,
    "HTTP errors: the `error` of `{success: false, error, message}`. Codes are never renamed or re-meant; new ones may be added.",
    "",
    ...httpTable(),
    "",
    "Policy refusals of builds and previews (HTTP 200 with `validation.accepted: false`; the legacy v1 builders answer 422",
    "`BUILD_REFUSED` with the same reasons) and reasons a deposit's attribution did not apply:",
    "",
    ...refusalTable(),
    END_MARKER
  ].join("\n")

const sectionBounds = (readme: string): readonly [number, number] => {
  const start = readme.indexOf(START_MARKER)
  const end = readme.indexOf(END_MARKER)
  if (start < 0 || end < start) throw new Error("README.md lacks the error-code markers")
  return [start, end + END_MARKER.length]
}

/** The README's error-code section as it stands (markers included). */
export const errorCodeSectionOf = (readme: string): string => readme.slice(...sectionBounds(readme))

/** The README with its error-code section replaced by `section`; throws if the markers are missing. */
export const withErrorCodeSection = (readme: string, section: string): string => {
  const [start, end] = sectionBounds(readme)
  return readme.slice(0, start) + section + readme.slice(end)
}

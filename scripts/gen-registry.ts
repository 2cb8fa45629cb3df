// Dev-time generator: writes src/ntbundle/registry.json (the ntbundle-type entries of the public
// vault registries) from ../shared/reference. The service reads only the committed JSON.
//   npx tsx scripts/gen-registry.ts [referenceDir]    (default ../shared/reference)
//   npx tsx scripts/gen-registry.ts --check           (exit 1 when the committed file is stale)
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { buildRegistryFile, type RegistrySourceRow } from "./registrySource.ts"

const args = process.argv.slice(2)
const check = args.includes("--check")
const referenceDir = args.find((arg) => !arg.startsWith("--")) ?? fileURLToPath(new URL("../../shared/reference/", import.meta.url))
const target = fileURLToPath(new URL("../src/ntbundle/registry.json", import.meta.url))

const readRows = (file: string): ReadonlyArray<RegistrySourceRow> =>
  JSON.parse(readFileSync(`${referenceDir.replace(/\/?$/, "/")}${file}`, "utf8")) as ReadonlyArray<RegistrySourceRow>

const registry = buildRegistryFile(readRows("vaults.json"), readRows("vaults.devnet.json"))

// One vault per line: compact, yet each registry change is a one-line diff.
const entryLines = (entries: ReadonlyArray<unknown>): string => entries.map((entry) => `    ${JSON.stringify(entry)}`).join(",\n")
const text = [
  "{",
  `  "about": ${JSON.stringify(registry.about)},`,
  `  "mainnet": [\n${entryLines(registry.mainnet)}\n  ],`,
  `  "devnet": [\n${entryLines(registry.devnet)}\n  ]`,
  "}",
  ""
].join("\n")

if (check) {
  const committed = readFileSync(target, "utf8")
  if (committed !== text) {
    process.stderr.write("src/ntbundle/registry.json is stale: run `npx tsx scripts/gen-registry.ts`\n")
    process.exitCode = 1
  }
} else {
  writeFileSync(target, text)
  process.stdout.write(`wrote ${target}\n`)
}

// Writes the README's error-code section from the registry (src/errors/codes.json).
//   npx tsx scripts/gen-error-codes.ts            write README.md
//   npx tsx scripts/gen-error-codes.ts --check    exit 1 when README.md is stale
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { renderErrorCodeSection, withErrorCodeSection } from "./errorCodesMarkdown.ts"

const readmePath = fileURLToPath(new URL("../README.md", import.meta.url))
const readme = readFileSync(readmePath, "utf8")
const current = withErrorCodeSection(readme, renderErrorCodeSection())

if (process.argv.includes("--check")) {
  if (current !== readme) {
    console.error("README.md's error-code section is stale: run npx tsx scripts/gen-error-codes.ts")
    process.exit(1)
  }
} else if (current !== readme) {
  writeFileSync(readmePath, current)
  console.log("README.md: error-code section updated")
}

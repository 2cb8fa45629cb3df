import { execFile } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..", "..")
const cruiser = join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs")
const FOLDERS = ["src", "services", "layers", "test", "bin", "scripts"]

interface Outcome {
  readonly exitCode: number
  readonly output: string
}

/** Runs dependency-cruiser with the project's own rules on the folders of `cwd`. */
const cruise = async (cwd: string, folders: ReadonlyArray<string>): Promise<Outcome> => {
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [cruiser, ...folders, "--config", join(root, ".dependency-cruiser.cjs"), "--output-type", "err"],
      { cwd, maxBuffer: 16 * 1024 * 1024 }
    )
    return { exitCode: 0, output: stdout }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return { exitCode: failed.code ?? -1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` }
  }
}

describe("dependency rules (DESIGN.md §3)", () => {
  it("hold for the whole project", async () => {
    const outcome = await cruise(root, FOLDERS)
    expect(outcome.output).not.toMatch(/error /)
    expect(outcome.exitCode).toBe(0)
  }, 120_000)

  describe("the checker", () => {
    const planted = mkdtempSync(join(tmpdir(), "vg-depcruise-"))
    afterAll(() => rmSync(planted, { recursive: true, force: true }))

    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(planted, path)), { recursive: true })
      writeFileSync(join(planted, path), text)
    }
    cpSync(join(root, "tsconfig.json"), join(planted, "tsconfig.json"))
    write("services/Port.ts", `import { adapter } from "../layers/memory/Adapter.ts"\nexport const port = adapter\n`)
    write("layers/memory/Adapter.ts", `import { other } from "../postgres/Other.ts"\nexport const adapter = other\n`)
    write("layers/postgres/Other.ts", `export const other = 1\n`)
    write("src/domain/pure.ts", `import { adapter } from "../../layers/memory/Adapter.ts"\nimport { helper } from "../../test/support/helper.ts"\nexport const pure = adapter + helper\n`)
    write("src/commands/root.ts", `import { adapter } from "../../layers/memory/Adapter.ts"\nexport const root = adapter\n`)
    write("src/a.ts", `import { b } from "./b.ts"\nexport const a = () => b()\n`)
    write("src/b.ts", `import { a } from "./a.ts"\nexport const b = () => a\n`)
    write("test/support/helper.ts", `export const helper = 2\n`)

    it("fails on each planted violation, and passes the composition root", async () => {
      const outcome = await cruise(planted, ["src", "services", "layers", "test"])
      expect(outcome.exitCode).not.toBe(0)
      expect(outcome.output).toMatch(/no-cycles: src\/(a|b)\.ts/)
      expect(outcome.output).toMatch(/src-not-to-layers: src\/domain\/pure\.ts → layers\/memory\/Adapter\.ts/)
      expect(outcome.output).toMatch(/services-not-to-layers: services\/Port\.ts → layers\/memory\/Adapter\.ts/)
      expect(outcome.output).toMatch(/layers-not-across: layers\/memory\/Adapter\.ts → layers\/postgres\/Other\.ts/)
      expect(outcome.output).toMatch(/shipped-not-to-test: src\/domain\/pure\.ts → test\/support\/helper\.ts/)
      expect(outcome.output).not.toMatch(/src\/commands\/root\.ts/)
    }, 120_000)
  })
})

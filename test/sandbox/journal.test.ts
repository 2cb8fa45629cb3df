import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { spawn } from "node:child_process"
import { afterAll, describe, expect, it } from "vitest"
import { SandboxJournal } from "../../src/sandbox/journal.ts"
import { runCli } from "../support/cli.ts"

const root = fs.mkdtempSync(path.join(os.tmpdir(), "vg-journal-"))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

describe("the sandbox chain's journal", () => {
  it("keeps entries in order for the same settings, ignores a torn last line, and another setting finds no chain", () => {
    const dir = path.join(root, "a")
    const journal = SandboxJournal.open(dir, { startMs: 1_000, knobs: "k1" }, true)
    journal.append({ slots: 1 })
    journal.append({ tx: "AQID", skipPreflight: false })
    journal.append({ fastForwardTo: 5_000 })
    journal.close()
    fs.appendFileSync(path.join(dir, "journal.jsonl"), '{"slots":')
    expect(SandboxJournal.existing(dir, "k1")).toEqual({
      identity: { startMs: 1_000, knobs: "k1" },
      entries: [{ slots: 1 }, { tx: "AQID", skipPreflight: false }, { fastForwardTo: 5_000 }]
    })
    expect(SandboxJournal.existing(dir, "k2")).toBeNull()
    expect(SandboxJournal.other(dir, "k2")).toBe(true)
    // reopened to append: the entries stay
    SandboxJournal.open(dir, { startMs: 1_000, knobs: "k1" }, false).close()
    expect(SandboxJournal.existing(dir, "k1")!.entries).toHaveLength(3)
  })

  it("sandbox reset removes the chain, and refuses while a serve process has it open", async () => {
    const dataDir = path.join(root, "data")
    const dir = path.join(dataDir, "sandbox")
    SandboxJournal.open(dir, { startMs: 1, knobs: "k" }, true).close()
    // another live process named as the owner
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"])
    fs.writeFileSync(path.join(dir, "owner.pid"), `${other.pid}\n`)
    const refused = await runCli(["sandbox", "reset"], { DATA_DIR: dataDir })
    other.kill()
    expect(refused.code).toBe(1)
    expect(refused.output).toMatch(new RegExp(`in use by process ${other.pid}`))
    expect(fs.existsSync(path.join(dir, "chain.json"))).toBe(true)
    await new Promise((r) => other.once("exit", r))
    const reset = await runCli(["sandbox", "reset"], { DATA_DIR: dataDir })
    expect(reset.code).toBe(0)
    expect(reset.output).toMatch(/removed the sandbox chain/)
    expect(fs.existsSync(dir)).toBe(false)
    expect((await runCli(["sandbox", "reset"], { DATA_DIR: dataDir })).output).toMatch(/no sandbox chain/)
  })
})

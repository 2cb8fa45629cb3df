import { describe, expect, it } from "vitest"
import { runCli } from "../support/cli.ts"

describe("vault-gateway CLI", () => {
  it("lists its subcommands with --help and exits 0", async () => {
    const { code, output } = await runCli(["--help"])
    expect(code).toBe(0)
    expect(output).toMatch(/usage: vault-gateway/)
    expect(output).toMatch(/\bserve\b/)
  })

  it("exits 2 with a usage line on an unknown subcommand", async () => {
    const { code, output } = await runCli(["frobnicate"])
    expect(code).toBe(2)
    expect(output).toMatch(/unknown command 'frobnicate'/)
    expect(output).toMatch(/usage: vault-gateway/)
  })

  it("exits 2 without a subcommand", async () => {
    const { code } = await runCli([])
    expect(code).toBe(2)
  })

  it("fails fast on an invalid PORT, naming the variable", async () => {
    const started = Date.now()
    const { code, output } = await runCli(["serve"], { PORT: "abc" })
    expect(code).toBe(2)
    expect(output).toMatch(/PORT/)
    expect(output.trim().split("\n")).toHaveLength(1)
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})

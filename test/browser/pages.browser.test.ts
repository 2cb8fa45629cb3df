import fs from "node:fs"
import path from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freeLoopbackPort } from "../../layers/postgres/EmbeddedPostgres.ts"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import { newWallet } from "../api/controlPlane/signInWallet.ts"
import { type RunningCli, startCli } from "../support/cli.ts"
import { ARTIFACTS, cspViolations, installTestWallets, launchChromium, testWalletScript } from "./support/browser.ts"

/**
 * The builder dashboard and the ops page in Debian's Chromium, against a gateway started as a user
 * starts it (sandbox chain, embedded PostgreSQL), with a Wallet Standard test wallet that signs
 * with a real ed25519 key. Runs as `npm run test:browser`, so `npm test` needs no browser.
 */

const until = async <A>(read: () => Promise<A>, accept: (value: A) => boolean, timeoutMs: number, what: string): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read().catch(() => undefined)
    if (value !== undefined && accept(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const DESKTOP = { width: 1280, height: 900 }
const PHONE = { width: 390, height: 844 }

describe("the web pages in a real browser", () => {
  const dir = tempDir("vg-browser-")
  const wallet = newWallet()
  let gateway: RunningCli | undefined
  let browser: Browser | undefined
  let context: BrowserContext
  let page: Page
  let url = ""

  const screenshot = async (name: string, size: { width: number; height: number }) => {
    await page.setViewportSize(size)
    // charts follow their container's width
    await page.waitForTimeout(300)
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true })
    // nothing wider than the screen: no sideways scrolling
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(size.width)
  }

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true })
    const port = await freeLoopbackPort()
    url = `http://127.0.0.1:${port}`
    gateway = startCli(["serve"], {
      DATA_DIR: path.join(dir, "gateway"),
      PORT: String(port),
      SANDBOX_USERS: "20",
      SANDBOX_BUILDERS: "2",
      SANDBOX_HISTORY_DAYS: "1"
    })
    await gateway.waitForOutput(/listening on http/, 90_000)
    await until(() => fetch(`${url}/ready`).then((answer) => answer.status), (status) => status === 200, 150_000, "the gateway to be live")
    browser = await launchChromium()
    context = await browser.newContext({ viewport: DESKTOP })
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url })
    page = await context.newPage()
    await installTestWallets(page, wallet, await testWalletScript())
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    if (gateway !== undefined) {
      gateway.child.kill("SIGINT")
      await gateway.exited
    }
    fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("a builder signs in with a wallet, claims a code, creates a key seen once, sees its usage, revokes, generates and rotates keys", async () => {
    await page.goto(`${url}/dashboard`)
    const signInButton = page.getByRole("button", { name: "Sign in with Test Wallet", exact: true })
    await signInButton.waitFor()
    await expect(page.getByRole("button", { name: "Sign in with Plain Test Wallet" }).count()).resolves.toBe(1)
    await screenshot("dashboard-signed-out-phone", PHONE)
    await page.setViewportSize(DESKTOP)

    // keyboard only: Tab to the wallet's button, Enter
    for (let i = 0; i < 10 && !(await signInButton.evaluate((button) => button === (button as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement)); i++) await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Organization" }).waitFor()
    await expect(page.locator("#owner-wallet").textContent()).resolves.toBe(wallet.address)

    // a code: claimed, listed, its referral link copied
    const code = `PW${Date.now().toString(36).toUpperCase()}`
    await page.getByLabel("New code").fill(code)
    await page.getByRole("button", { name: "Claim code" }).click()
    const codeRow = page.locator(`tr[data-code="${code}"]`)
    await codeRow.waitFor()
    await expect(codeRow.textContent()).resolves.toContain("enabled")
    expect(((await (await fetch(`${url}/public/codes/${code}`)).json()) as { data: { referrer: string } }).data.referrer).toBe(wallet.address)
    await page.getByLabel("Your app's page for referral links").fill("https://app.example/deposit")
    await page.getByRole("button", { name: `Copy the referral link of ${code}` }).click()
    await expect(page.evaluate<string>("navigator.clipboard.readText()")).resolves.toBe(`https://app.example/deposit?r=${code}`)

    // a key: created with a name and scopes, its plaintext shown once with a copy button
    await page.getByLabel("Key name").fill("backend")
    await expect(page.getByLabel(/^reads/).isChecked()).resolves.toBe(true)
    await page.getByRole("button", { name: "Create key" }).click()
    const plaintextField = page.getByLabel("API key", { exact: true })
    await plaintextField.waitFor()
    const key = await plaintextField.inputValue()
    expect(key).toMatch(/^vg_sandbox_[0-9A-Za-z]{38}$/)
    await expect(page.getByRole("alert").textContent()).resolves.toContain("shown this once")
    await page.getByRole("button", { name: "Copy key" }).click()
    await expect(page.evaluate<string>("navigator.clipboard.readText()")).resolves.toBe(key)

    // the key reads from a backend
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/v2/vaults`, { headers: { "x-api-key": key } })).status).toBe(200)

    // after a reload the plaintext is gone for good
    await page.reload()
    await page.getByRole("heading", { name: "API keys" }).waitFor()
    const keyRow = page.locator("tr[data-key-id]", { hasText: "backend" })
    await keyRow.waitFor()
    expect(await page.getByLabel("API key", { exact: true }).count()).toBe(0)
    expect(await page.content()).not.toContain(key)
    await expect(keyRow.textContent()).resolves.toContain(`${key.slice(0, 11)}`)

    // usage: today's requests of the key, in the table and in the chart
    const requestsCell = keyRow.locator("td.number")
    await until(() => requestsCell.textContent(), (text) => Number(text?.replace(/,/g, "")) >= 3, 15_000, "the key's requests in the table")
    const usagePoints = Number(await page.locator("#usage-chart").getAttribute("data-points"))
    expect(usagePoints).toBeGreaterThanOrEqual(30)
    expect(await page.locator("#usage-chart canvas").count()).toBe(1)
    await page.getByRole("heading", { name: "Reading your reporting" }).waitFor()
    await expect(page.locator("pre").textContent()).resolves.toContain(`/v2/referrer/${wallet.address}/summary`)
    await screenshot("dashboard-desktop", DESKTOP)
    await screenshot("dashboard-phone", PHONE)
    await page.setViewportSize(DESKTOP)

    // revoke, confirmed in a dialog: the key is refused (documented: within 60 s; here at once)
    await page.getByRole("button", { name: "Revoke backend" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click()
    await until(() => keyRow.textContent(), (text) => text?.includes("revoked") === true, 10_000, "the key to show as revoked")
    const revokedAt = Date.now()
    await until(() => fetch(`${url}/v2/vaults`, { headers: { "x-api-key": key } }).then((answer) => answer.status), (status) => status === 401, 60_000, "the revoked key to be refused")
    expect(Date.now() - revokedAt).toBeLessThan(60_000)

    // the audit log names what happened
    const audit = await until(() => page.locator("#audit-list").textContent(), (text) => (text ?? "").includes("revoke"), 10_000, "the revocation in the audit log")
    expect(audit).toMatch(/code/)

    // Generate key: a new key with every scope, shown once; then rotated: another plaintext
    await page.getByRole("button", { name: "Generate key (revokes the others)" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Generate and revoke the others" }).click()
    await until(() => page.getByLabel("API key", { exact: true }).inputValue(), (value) => value.startsWith("vg_sandbox_"), 10_000, "the generated key")
    const generated = await page.getByLabel("API key", { exact: true }).inputValue()
    expect((await fetch(`${url}/v2/vaults`, { headers: { "x-api-key": generated } })).status).toBe(200)
    await page.getByRole("button", { name: "I have stored it" }).click()
    expect(await page.getByLabel("API key", { exact: true }).count()).toBe(0)
    await page.getByRole("button", { name: "Rotate generated" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Rotate" }).click()
    const rotated = await until(() => page.getByLabel("API key", { exact: true }).inputValue(), (value) => value.startsWith("vg_sandbox_"), 10_000, "the rotated key")
    expect(rotated).not.toBe(generated)
    expect((await fetch(`${url}/v2/vaults`, { headers: { "x-api-key": rotated } })).status).toBe(200)

    // sign out, then in again with a wallet that only signs messages (the fallback): same organization
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("button", { name: "Sign in with Plain Test Wallet" }).click()
    await page.getByRole("heading", { name: "Organization" }).waitFor()
    await expect(page.locator("#owner-wallet").textContent()).resolves.toBe(wallet.address)
    await page.locator(`tr[data-code="${code}"]`).waitFor()

    expect(await cspViolations(page)).toEqual([])
  })

  it("the ops page shows the phase, the lag chart with data points and the traffic, updating live", async () => {
    await page.setViewportSize(DESKTOP)
    await page.goto(`${url}/ops`)
    await until(() => page.locator("#phase").textContent(), (text) => text === "live", 15_000, "the phase")
    // the server samples every 10 s: wait for a sample with a lag
    const points = await until(
      async () => {
        await page.reload()
        await page.locator("#phase").waitFor()
        return Number(await page.locator("#lag-chart").getAttribute("data-points"))
      },
      (count) => count > 0,
      40_000,
      "lag samples in the chart"
    )
    expect(points).toBeGreaterThan(0)
    expect(Number(await page.locator("#traffic-chart").getAttribute("data-points"))).toBeGreaterThan(0)
    await expect(page.locator("#lag").textContent()).resolves.toMatch(/^\d[\d,]* slots, \d+ s$/)
    await expect(page.locator("#checkpoint").textContent()).resolves.toMatch(/^slot [\d,]+, \d+ s ago$/)
    await expect(page.locator("#backfill").textContent()).resolves.toMatch(/transactions/)
    // live: the figures are read again without a reload
    const first = await page.locator("#updated").textContent()
    await until(() => page.locator("#updated").textContent(), (text) => text !== first, 15_000, "the next update")
    await screenshot("ops-desktop", DESKTOP)
    await screenshot("ops-phone", PHONE)
    expect(await cspViolations(page)).toEqual([])
  })

  it("the docs page runs under its Content-Security-Policy: no inline script or load refused", async () => {
    await page.setViewportSize(DESKTOP)
    await page.goto(`${url}/docs`)
    await until(() => page.evaluate<string>("document.body.innerText"), (text) => text.includes("/v2/vaults") || text.includes("Introduction"), 30_000, "the docs to render")
    await page.waitForTimeout(1000)
    // Scalar probes eval once and works without it (refused, as the policy means to)
    expect((await cspViolations(page)).filter((violation) => violation !== "script-src eval")).toEqual([])
  })
})

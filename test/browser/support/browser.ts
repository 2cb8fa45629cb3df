import path from "node:path"
import { fileURLToPath } from "node:url"
import * as esbuild from "esbuild"
import { type Browser, chromium, type Page } from "playwright-core"
import type { TestWallet } from "../../api/controlPlane/signInWallet.ts"

/** Debian's Chromium (`apt-get install chromium`), headless, with no network of its own. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })

/** Where screenshots go (git-ignored). */
export const ARTIFACTS = fileURLToPath(new URL("../../../test-artifacts/", import.meta.url))

const WALLET_PAGE = fileURLToPath(new URL("./testWalletPage.ts", import.meta.url))

/** The test wallets' page script, bundled once. */
export const testWalletScript = async (): Promise<string> => {
  const result = await esbuild.build({
    entryPoints: [WALLET_PAGE],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome111",
    write: false,
    logLevel: "silent",
    absWorkingDir: path.dirname(WALLET_PAGE)
  })
  return result.outputFiles[0]!.text
}

/**
 * Puts the test wallets into every document of `page` before its own scripts: the key stays in this
 * process, which signs each message the page hands over (real ed25519 signatures).
 */
export const installTestWallets = async (page: Page, wallet: TestWallet, script: string): Promise<void> => {
  await page.exposeFunction("__testWalletSign", (messageBase64: string) =>
    Buffer.from(wallet.sign(Buffer.from(messageBase64, "base64"))).toString("base64"))
  const config = JSON.stringify({ address: wallet.address, publicKey: Buffer.from(wallet.publicKey).toString("base64") })
  await page.addInitScript({ content: `globalThis.__testWalletConfig = ${config};\n${script}` })
}

/** The page's Content-Security-Policy refusals so far. */
export const cspViolations = (page: Page): Promise<ReadonlyArray<string>> =>
  page.evaluate(() => (globalThis as unknown as { __cspViolations?: Array<string> }).__cspViolations ?? [])

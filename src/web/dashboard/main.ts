import "../common/style.css"
import type { Wallet } from "@wallet-standard/base"
import { api, ApiError, describe, ok } from "../common/api.ts"
import { fill, h, utcTime } from "../common/dom.ts"
import { auditSection } from "./audit.ts"
import { codesSection } from "./codes.ts"
import { keysSection } from "./keys.ts"
import { readingNote } from "./readingNote.ts"
import { usageSection } from "./usage.ts"
import { signInWith, watchWallets } from "./wallets.ts"

const app = document.getElementById("app")!

const header = (signedIn: boolean, onSignOut?: () => void) =>
  h("header", {},
    h("h1", {}, "Builder dashboard"),
    h("nav", { "aria-label": "Gateway pages" },
      h("a", { href: "/ops" }, "Gateway status"),
      h("a", { href: "/docs" }, "API reference"),
      signedIn ? h("button", { type: "button", id: "sign-out", onclick: onSignOut }, "Sign out") : null))

/** Signed out: the wallets the Wallet Standard knows, each a sign-in button. */
const showSignIn = (message = "") => {
  const wallets = h("ul", { class: "wallets", id: "wallets" })
  const status = h("p", { class: "status", role: "status" }, message)
  fill(app,
    header(false),
    h("section", { "aria-labelledby": "signin-title" },
      h("h2", { id: "signin-title" }, "Sign in with your wallet"),
      h("p", {}, "Your wallet signs a Sign-In With Solana message (no transaction, no fee). The first sign-in creates your organization, owned by that wallet: claim a builder code and create API keys for your backend."),
      wallets,
      status))
  watchWallets((found: ReadonlyArray<Wallet>) => {
    if (found.length === 0) {
      return fill(wallets, h("li", { class: "empty" }, "No Solana wallet found in this browser. Install or unlock one that supports the Wallet Standard (Phantom, Solflare, Backpack, ...) and reload."))
    }
    fill(wallets, found.map((wallet) =>
      h("li", {},
        h("button", {
          type: "button",
          class: "wallet",
          onclick: async () => {
            status.textContent = `Waiting for ${wallet.name}…`
            try {
              await signInWith(wallet)
              void start()
            } catch (error) {
              status.textContent = `Sign-in failed: ${describe(error)}`
            }
          }
        }, h("img", { src: wallet.icon, alt: "", width: 28, height: 28 }), `Sign in with ${wallet.name}`))))
  })
}

/** Signed in: the organization and what it owns. */
const showOrganization = (ownerWallet: string, organizationId: string, createdAt: string) => {
  const refresh = () => void Promise.all([codes.load(), keys.load(), usage.load(), audit.load()]).catch(failed)
  const codes = codesSection(refresh)
  const keys = keysSection(refresh)
  const usage = usageSection((totals) => keys.setTotals(totals))
  const audit = auditSection()
  const signOut = async () => {
    await api.POST("/v2/auth/logout")
    showSignIn("Signed out.")
  }
  fill(app,
    header(true, () => void signOut()),
    h("section", { "aria-labelledby": "org-title", class: "organization" },
      h("h2", { id: "org-title" }, "Organization"),
      h("dl", {},
        h("dt", {}, "Owner wallet"), h("dd", {}, h("code", { id: "owner-wallet" }, ownerWallet)),
        h("dt", {}, "Organization"), h("dd", {}, h("code", {}, organizationId)),
        h("dt", {}, "Since"), h("dd", {}, utcTime(createdAt)))),
    codes.element,
    keys.element,
    usage.element,
    readingNote(ownerWallet),
    audit.element)
  refresh()
}

const failed = (error: unknown) => {
  if (error instanceof ApiError && error.status === 401) return showSignIn("Your session ended: sign in again.")
  app.prepend(h("p", { class: "status error", role: "alert" }, describe(error)))
}

const start = async () => {
  try {
    const { data } = await ok(api.GET("/v2/auth/session"))
    showOrganization(data.organization.ownerWallet, data.organization.id, data.organization.createdAt)
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) showSignIn()
    else failed(error)
  }
}

void start()

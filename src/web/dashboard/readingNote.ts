import { h } from "../common/dom.ts"

/**
 * How to read reporting: with a key, from the builder's backend. The wallet session is not a data
 * credential, so this page shows no vault or reporting data.
 */
export const readingNote = (ownerWallet: string) =>
  h("section", { "aria-labelledby": "reading-title" },
    h("h2", { id: "reading-title" }, "Reading your reporting"),
    h("p", {}, "This page manages codes and keys only; it shows no vault or reporting data. Read your data from your backend with a key that has the reporting scope (never put a key in frontend code):"),
    h("pre", { tabindex: 0 }, h("code", {}, `curl -H "x-api-key: $VAULT_GATEWAY_KEY" ${location.origin}/v2/referrer/${ownerWallet}/summary`)),
    h("p", {}, "Also ", h("code", {}, "/users"), ", ", h("code", {}, "/history"), ", ", h("code", {}, "/payouts"), ", ", h("code", {}, "/flows"), " under the same path, and ",
      h("code", {}, "/v2/partner/agreements"), "; the ", h("a", { href: "/docs" }, "API reference"), " lists them."))

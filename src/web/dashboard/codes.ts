import type { components } from "../../client/openapi.ts"
import { api, describe, ok } from "../common/api.ts"
import { copyText, fill, h, utcTime } from "../common/dom.ts"

type Code = components["schemas"]["OrganizationCode"]

const LINK_BASE_KEY = "vault-gateway.referralLinkBase"

/** `https://app.example/deposit?r=CODE`: the builder's own page, which resolves the code and passes it to the builders. */
export const referralLink = (base: string, code: string): string => {
  const url = new URL(base)
  url.searchParams.set("r", code)
  return url.toString()
}

const validBase = (base: string): boolean => {
  try {
    return ["http:", "https:"].includes(new URL(base).protocol)
  } catch {
    return false
  }
}

/** The organization's codes: claim one, disable or enable it, copy its referral link. */
export const codesSection = (onChange: () => void) => {
  const list = h("div", { id: "codes-list" })
  const status = h("p", { class: "status", role: "status" })
  const codeInput = h("input", { id: "claim-code", name: "code", required: true, minlength: 3, maxlength: 32, pattern: "[A-Za-z0-9][A-Za-z0-9_-]{2,31}", autocomplete: "off", "aria-describedby": "claim-code-rule" })
  const baseInput = h("input", { id: "link-base", type: "url", placeholder: "https://your-app.example/deposit", value: localStorage.getItem(LINK_BASE_KEY) ?? "", "aria-describedby": "link-base-help" })
  let codes: ReadonlyArray<Code> = []

  const render = () => {
    const base = baseInput.value.trim()
    if (codes.length === 0) return fill(list, h("p", { class: "empty" }, "No code yet: claim one above."))
    fill(
      list,
      h("table", {},
        h("caption", { class: "visually-hidden" }, "Your builder codes"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Code"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, "Claimed"), h("th", { scope: "col" }, "Actions"))),
        h("tbody", {}, codes.map((code) =>
          h("tr", { "data-code": code.code },
            h("td", { "data-label": "Code" }, h("code", {}, code.code)),
            h("td", { "data-label": "Status" }, h("span", { class: code.enabled ? "badge ok" : "badge off" }, code.enabled ? "enabled" : "disabled")),
            h("td", { "data-label": "Claimed" }, utcTime(code.createdAt)),
            h("td", { class: "actions" },
              h("button", {
                type: "button",
                disabled: !validBase(base) || !code.enabled,
                "aria-label": `Copy the referral link of ${code.code}`,
                onclick: async () => status.textContent = `${await copyText(referralLink(base, code.code))}: ${referralLink(base, code.code)}`
              }, "Copy link"),
              h("button", {
                type: "button",
                "aria-label": `${code.enabled ? "Disable" : "Enable"} ${code.code}`,
                onclick: () => act(code.enabled ? "disable" : "enable", code.code)
              }, code.enabled ? "Disable" : "Enable"))
          )))
      )
    )
  }

  const act = async (action: "disable" | "enable", code: string) => {
    try {
      const path = action === "disable" ? "/v2/org/codes/{code}/disable" as const : "/v2/org/codes/{code}/enable" as const
      await ok(api.POST(path, { params: { path: { code } } }))
      status.textContent = `${code} ${action}d`
      onChange()
    } catch (error) {
      status.textContent = describe(error)
    }
  }

  const claim = async (event: Event) => {
    event.preventDefault()
    try {
      const { data } = await ok(api.POST("/v2/org/codes", { body: { code: codeInput.value.trim() } }))
      status.textContent = `Claimed ${data.code.code}`
      codeInput.value = ""
      onChange()
    } catch (error) {
      status.textContent = describe(error)
    }
  }

  baseInput.addEventListener("input", () => {
    localStorage.setItem(LINK_BASE_KEY, baseInput.value.trim())
    render()
  })

  const element = h("section", { "aria-labelledby": "codes-title" },
    h("h2", { id: "codes-title" }, "Builder codes"),
    h("form", { class: "inline", onsubmit: claim },
      h("label", { for: "claim-code" }, "New code"),
      codeInput,
      h("button", { type: "submit" }, "Claim code")),
    h("p", { id: "claim-code-rule", class: "hint" }, "3 to 32 of A-Z a-z 0-9 _ -, starting with a letter or digit; unique without regard to case."),
    h("div", { class: "field" },
      h("label", { for: "link-base" }, "Your app's page for referral links"),
      baseInput,
      h("p", { id: "link-base-help", class: "hint" }, "Links are this page with ?r=CODE; your app resolves the code with GET /public/codes/{code} and passes it to the deposit builder.")),
    status,
    list)

  return {
    element,
    load: async () => {
      codes = (await ok(api.GET("/v2/org/codes"))).data.codes
      render()
    }
  }
}

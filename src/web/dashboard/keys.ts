import type { components } from "../../client/openapi.ts"
import { api, describe, ok } from "../common/api.ts"
import { confirmDialog, copyText, fill, h, utcTime } from "../common/dom.ts"

type Key = components["schemas"]["ApiKey"]
type Scope = Key["scopes"][number]

const SCOPES: ReadonlyArray<{ readonly scope: Scope; readonly help: string }> = [
  { scope: "reads", help: "vaults, previews, positions, platform stats" },
  { scope: "reporting", help: "builder reporting and agreements" },
  { scope: "builds", help: "transaction builders on the key's quota" },
  { scope: "stream", help: "the WebSocket stream" }
]

/**
 * The plaintext of a key just made: shown here once, with a copy button and a warning; it lives in
 * this element only (never stored by the page), so a reload forgets it.
 */
const plaintextPanel = (key: string, name: string, onDismiss: () => void) => {
  const field = h("input", { id: "new-key", readonly: true, value: key, spellcheck: "false", autocomplete: "off", "aria-describedby": "new-key-warning" })
  const said = h("p", { class: "status", role: "status" })
  return h("div", { class: "plaintext", role: "alert" },
    h("p", { id: "new-key-warning" }, h("strong", {}, `Your new key "${name}". `), "Copy it now and keep it in your backend's secrets: it is shown this once and cannot be shown again (only its hash is stored)."),
    h("label", { for: "new-key" }, "API key"),
    h("div", { class: "inline" },
      field,
      h("button", { type: "button", onclick: async () => said.textContent = await copyText(key, field) }, "Copy key"),
      h("button", { type: "button", onclick: onDismiss }, "I have stored it")),
    said)
}

/** The organization's keys: create (name and scopes), Generate key, rotate, revoke. */
export const keysSection = (onChange: () => void) => {
  const status = h("p", { class: "status", role: "status" })
  const fresh = h("div", { id: "fresh-key" })
  const list = h("div", { id: "keys-list" })
  const nameInput = h("input", { id: "key-name", name: "name", required: true, maxlength: 64, autocomplete: "off", placeholder: "backend" })
  const scopeBoxes = SCOPES.map(({ scope }) => h("input", { type: "checkbox", id: `scope-${scope}`, name: "scopes", value: scope, checked: scope !== "stream" }))
  let totals = new Map<string, number>()
  let keys: ReadonlyArray<Key> = []

  const show = (plaintext: string | null, key: Key) => {
    if (plaintext === null) return
    fill(fresh, plaintextPanel(plaintext, key.name, () => fill(fresh)))
    fresh.querySelector("input")?.focus()
  }

  const run = async (what: () => Promise<string>) => {
    try {
      status.textContent = await what()
      onChange()
    } catch (error) {
      status.textContent = describe(error)
    }
  }

  const create = (event: Event) => {
    event.preventDefault()
    const scopes = scopeBoxes.filter((box) => box.checked).map((box) => box.value as Scope)
    if (scopes.length === 0) return void (status.textContent = "Pick at least one scope")
    void run(async () => {
      const { data } = await ok(api.POST("/v2/org/keys", { body: { name: nameInput.value.trim(), scopes } }))
      show(data.key, data.apiKey)
      nameInput.value = ""
      return `Created ${data.apiKey.name}`
    })
  }

  const generate = async () => {
    if (!(await confirmDialog("Generate a new key with every scope and revoke every other active key?", "Generate and revoke the others"))) return
    void run(async () => {
      const { data } = await ok(api.POST("/v2/org/keys/generate", { body: {} }))
      show(data.key, data.apiKey)
      return `Generated ${data.apiKey.name}; ${data.revokedKeyIds?.length ?? 0} earlier key(s) revoked`
    })
  }

  const rotate = async (key: Key) => {
    if (!(await confirmDialog(`Rotate ${key.name}? The old key stays valid 60 seconds.`, "Rotate"))) return
    void run(async () => {
      const { data } = await ok(api.POST("/v2/org/keys/{id}/rotate", { params: { path: { id: key.id } } }))
      show(data.key, data.apiKey)
      return `Rotated ${key.name}: the old key stops working within 60 seconds`
    })
  }

  const revoke = async (key: Key) => {
    if (!(await confirmDialog(`Revoke ${key.name} (${key.prefix}…${key.last4})? Requests with it are refused at once.`, "Revoke"))) return
    void run(async () => {
      await ok(api.POST("/v2/org/keys/{id}/revoke", { params: { path: { id: key.id } } }))
      return `Revoked ${key.name}`
    })
  }

  const render = () => {
    if (keys.length === 0) return fill(list, h("p", { class: "empty" }, "No key yet: create one above."))
    fill(list, h("table", {},
      h("caption", { class: "visually-hidden" }, "Your API keys"),
      h("thead", {}, h("tr", {}, ["Name", "Key", "Scopes", "Created", "Last used", "Requests (30 d)", "Status", "Actions"].map((title) => h("th", { scope: "col" }, title)))),
      h("tbody", {}, keys.map((key) =>
        h("tr", { "data-key-id": key.id },
          h("td", { "data-label": "Name" }, key.name),
          h("td", { "data-label": "Key" }, h("code", {}, `${key.prefix}…${key.last4}`)),
          h("td", { "data-label": "Scopes" }, key.scopes.join(", ")),
          h("td", { "data-label": "Created" }, utcTime(key.createdAt)),
          h("td", { "data-label": "Last used" }, utcTime(key.lastUsedAt)),
          h("td", { class: "number", "data-label": "Requests (30 d)" }, (totals.get(key.id) ?? 0).toLocaleString("en")),
          h("td", { "data-label": "Status" }, h("span", { class: key.active ? "badge ok" : "badge off" }, key.active ? (key.expiresAt === null ? "active" : `expires ${utcTime(key.expiresAt)}`) : "revoked")),
          h("td", { class: "actions" }, key.active && key.expiresAt === null
            ? [
              h("button", { type: "button", "aria-label": `Rotate ${key.name}`, onclick: () => void rotate(key) }, "Rotate"),
              h("button", { type: "button", class: "danger", "aria-label": `Revoke ${key.name}`, onclick: () => void revoke(key) }, "Revoke")
            ]
            : null)
        )))))
  }

  const element = h("section", { "aria-labelledby": "keys-title" },
    h("h2", { id: "keys-title" }, "API keys"),
    h("form", { onsubmit: create },
      h("div", { class: "field" }, h("label", { for: "key-name" }, "Key name"), nameInput),
      h("fieldset", {},
        h("legend", {}, "Scopes"),
        SCOPES.map(({ scope, help }, i) => h("div", { class: "check" }, scopeBoxes[i]!, h("label", { for: `scope-${scope}` }, h("strong", {}, scope), ` — ${help}`)))),
      h("div", { class: "inline" },
        h("button", { type: "submit" }, "Create key"),
        h("button", { type: "button", class: "danger", onclick: () => void generate() }, "Generate key (revokes the others)"))),
    fresh,
    status,
    list)

  return {
    element,
    load: async () => {
      keys = (await ok(api.GET("/v2/org/keys"))).data.keys
      render()
    },
    setTotals: (byKey: Map<string, number>) => {
      totals = byKey
      render()
    }
  }
}

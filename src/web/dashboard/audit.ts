import type { components } from "../../client/openapi.ts"
import { api, describe, ok } from "../common/api.ts"
import { fill, h, utcTime } from "../common/dom.ts"

type Entry = components["schemas"]["AuditEntry"]

const detailsText = (details: Entry["details"]): string =>
  Object.entries(details).map(([name, value]) => `${name}: ${typeof value === "string" ? value : JSON.stringify(value)}`).join(", ")

/** The audit log, newest first, 20 at a time. */
export const auditSection = () => {
  const list = h("ol", { id: "audit-list", class: "audit" })
  const more = h("button", { type: "button", hidden: true }, "Load older entries")
  const status = h("p", { class: "status", role: "status" })
  let cursor: string | null = null

  const row = (entry: Entry) =>
    h("li", {},
      h("time", { datetime: entry.createdAt }, utcTime(entry.createdAt)),
      " ",
      h("strong", {}, entry.action),
      " by ",
      h("code", {}, `${entry.wallet.slice(0, 4)}…${entry.wallet.slice(-4)}`),
      Object.keys(entry.details).length > 0 ? h("span", { class: "hint" }, ` — ${detailsText(entry.details)}`) : null)

  const page = async (reset: boolean) => {
    try {
      const query = reset || cursor === null ? { limit: 20 } : { limit: 20, cursor }
      const { data } = await ok(api.GET("/v2/org/audit", { params: { query } }))
      if (reset) fill(list)
      list.append(...data.entries.map(row))
      cursor = data.nextCursor
      more.hidden = cursor === null
    } catch (error) {
      status.textContent = describe(error)
    }
  }
  more.addEventListener("click", () => void page(false))

  return {
    element: h("section", { "aria-labelledby": "audit-title" }, h("h2", { id: "audit-title" }, "Audit log"), list, more, status),
    load: () => page(true)
  }
}

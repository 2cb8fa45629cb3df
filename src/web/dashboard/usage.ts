import { api, ok } from "../common/api.ts"
import { timeChart } from "../common/chart.ts"
import { fill, h } from "../common/dom.ts"

/** Each key's requests per UTC day over 30 days, as a chart with a table summary for screen readers. */
export const usageSection = (onTotals: (totals: Map<string, number>) => void) => {
  const chartBox = h("div", { id: "usage-chart", class: "chart", role: "img", "aria-label": "Requests per day for each key over the last 30 days" })
  const summary = h("p", { class: "hint", id: "usage-summary" })
  const element = h("section", { "aria-labelledby": "usage-title" },
    h("h2", { id: "usage-title" }, "Requests per day"),
    chartBox,
    summary)
  let chart: ReturnType<typeof timeChart> | undefined
  let labels = ""

  return {
    element,
    load: async () => {
      const { data } = await ok(api.GET("/v2/org/usage", { params: { query: { days: 30 } } }))
      const names = data.keys.map((key) => key.name).join("\u0000")
      if (chart === undefined || names !== labels) {
        chart?.destroy()
        chartBox.replaceChildren()
        chart = timeChart(chartBox, { series: data.keys.map((key) => ({ label: key.name })), yLabel: "requests", points: true })
        labels = names
      }
      const x = data.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000)
      chart.update(x, data.keys.map((key) => key.requests))
      const totals = new Map(data.keys.map((key) => [key.keyId, key.requests.reduce((sum, n) => sum + n, 0)]))
      const all = [...totals.values()].reduce((sum, n) => sum + n, 0)
      fill(summary, `${all.toLocaleString("en")} requests over ${data.days.length} UTC days (${data.days[0]} to ${data.days.at(-1)}), today so far included.`)
      onTotals(totals)
    }
  }
}

import "../common/style.css"
import type { components } from "../../client/openapi.ts"
import { api, describe, ok } from "../common/api.ts"
import { timeChart } from "../common/chart.ts"
import { fill, h } from "../common/dom.ts"

type Status = components["schemas"]["ServiceStatus"]
type History = components["schemas"]["StatusHistory"]

const STATUS_EVERY_MS = 5_000
const HISTORY_EVERY_MS = 10_000

const app = document.getElementById("app")!
const figures = h("dl", { class: "figures", id: "figures" })
const updated = h("p", { class: "hint", role: "status", id: "updated" })
const lagBox = h("div", { id: "lag-chart", class: "chart", role: "img", "aria-label": "Projection lag over the last hour" })
const trafficBox = h("div", { id: "traffic-chart", class: "chart", role: "img", "aria-label": "Requests per second and WebSocket connections over the last hour" })

fill(app,
  h("header", {},
    h("h1", {}, "Gateway status"),
    h("nav", { "aria-label": "Gateway pages" }, h("a", { href: "/dashboard" }, "Builder dashboard"), h("a", { href: "/docs" }, "API reference"))),
  h("section", { "aria-labelledby": "now-title" }, h("h2", { id: "now-title" }, "Now"), figures, updated),
  h("section", { "aria-labelledby": "lag-title" }, h("h2", { id: "lag-title" }, "Lag, last hour"), lagBox),
  h("section", { "aria-labelledby": "traffic-title" }, h("h2", { id: "traffic-title" }, "Traffic, last hour"), trafficBox))

const lagChart = timeChart(lagBox, { series: [{ label: "lag (slots)" }, { label: "lag (seconds)", scale: "y2" }], yLabel: "slots", y2Label: "seconds", points: true })
const trafficChart = timeChart(trafficBox, { series: [{ label: "requests/s" }, { label: "WebSocket connections", scale: "y2" }], yLabel: "req/s", y2Label: "connections", points: true })

const seconds = (value: number | null) => (value === null ? "—" : value < 120 ? `${Math.round(value)} s` : `${Math.round(value / 60)} min`)
const count = (value: number | null | undefined) => (value === null || value === undefined ? "—" : value.toLocaleString("en"))

let latest: History["samples"][number] | undefined

const figure = (name: string, value: Node | string, id: string) => [h("dt", {}, name), h("dd", { id }, value)]

const showStatus = (status: Status) => {
  const backfill = status.backfill
  fill(figures,
    figure("Projection", h("span", { class: `badge phase-${status.status}` }, status.status.replace("_", " ")), "phase"),
    status.reason === null ? null : figure("Reason", status.reason, "reason"),
    figure("Slot", `${count(status.asOf?.slot)} of ${count(status.chainSlot)}`, "slot"),
    figure("Lag", `${count(status.lagSlots)} slots, ${seconds(status.lagSeconds)}`, "lag"),
    figure("Checkpoint", `slot ${count(status.checkpointSlot)}, ${seconds(status.checkpointAgeSeconds)} ago`, "checkpoint"),
    figure("History backfill", backfill === null
      ? "not running here"
      : h("span", {},
        h("progress", { max: backfill.total ?? 0, value: backfill.done, "aria-label": "backfill progress" }),
        ` ${count(backfill.done)} of ${backfill.total === null ? "?" : count(backfill.total)} transactions (${backfill.state}${backfill.etaSeconds ? `, ${seconds(backfill.etaSeconds)} left` : ""})`), "backfill"),
    figure("Daily rollup", status.rollup === null ? "—" : `${status.rollup.state}, closed through ${status.rollup.closedThrough ?? "—"}`, "rollup"),
    figure("Requests", latest === undefined ? "—" : `${latest.requestsPerSecond} /s`, "requests"),
    figure("WebSocket connections", latest === undefined ? "—" : count(latest.wsConnections), "connections"))
  updated.textContent = `Updated ${new Date().toLocaleTimeString("en-GB")}; refreshes every ${STATUS_EVERY_MS / 1000} s.`
}

const showHistory = (history: History) => {
  const x = history.samples.map((sample) => sample.at)
  lagChart.update(x, [history.samples.map((sample) => sample.lagSlots), history.samples.map((sample) => sample.lagSeconds)])
  trafficChart.update(x, [history.samples.map((sample) => sample.requestsPerSecond), history.samples.map((sample) => sample.wsConnections)])
  latest = history.samples.at(-1)
}

const poll = (every: number, read: () => Promise<void>) => {
  const tick = async () => {
    if (!document.hidden) {
      try {
        await read()
      } catch (error) {
        updated.textContent = `Could not read the status: ${describe(error)}`
      }
    }
    setTimeout(tick, every)
  }
  return tick()
}

void poll(HISTORY_EVERY_MS, async () => showHistory(await ok(api.GET("/status/history")))).then(() =>
  poll(STATUS_EVERY_MS, async () => showStatus(await ok(api.GET("/status"))))
)

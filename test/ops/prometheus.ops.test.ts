import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freeLoopbackPort } from "../../layers/postgres/EmbeddedPostgres.ts"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import { type RunningCli, startCli } from "../support/cli.ts"

/**
 * A real Prometheus (Debian's `prometheus` package; `.ci/run` installs it) scrapes a gateway that
 * runs on the sandbox as a user starts it, and answers queries over the series it stored. Runs as
 * its own npm script (`npm run test:prometheus`), so `npm test` needs no Prometheus.
 */
const RULES = fileURLToPath(new URL("../../ops/prometheus/alerts.yml", import.meta.url))

/** Asks `check` every 250 ms until it says yes, else fails naming `what`. */
const until = async (check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
}

const stop = async (child: ChildProcess | undefined) => {
  if (child === undefined || child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGINT")
  await exited
}

interface Vector {
  readonly metric: Record<string, string>
  readonly value: [number, string]
}

describe("a real Prometheus scraping the gateway", () => {
  const dir = tempDir("vg-prometheus-")
  let gateway: RunningCli | undefined
  let prometheus: ChildProcess | undefined
  let prometheusUrl = ""
  let apiUrl = ""
  let metricsUrl = ""

  const query = async (expr: string): Promise<ReadonlyArray<Vector>> => {
    const answer = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`)
    const body = await answer.json() as { status: string; data: { result: ReadonlyArray<Vector> } }
    expect(body.status).toBe("success")
    return body.data.result
  }

  beforeAll(async () => {
    gateway = startCli(["serve"], {
      DATA_DIR: path.join(dir, "gateway"),
      PORT: "0",
      METRICS_PORT: "0",
      SANDBOX_USERS: "20",
      SANDBOX_BUILDERS: "2",
      SANDBOX_HISTORY_DAYS: "3"
    })
    apiUrl = (await gateway.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 60_000))[1]!
    metricsUrl = (await gateway.waitForOutput(/metrics on (http:\/\/[\d.]+:\d+\/metrics)/, 60_000))[1]!
    await until(async () => (await fetch(`${apiUrl}/ready`)).status === 200, 90_000, "the gateway to be live")

    const port = await freeLoopbackPort()
    prometheusUrl = `http://127.0.0.1:${port}`
    const config = path.join(dir, "prometheus.yml")
    fs.writeFileSync(config, [
      "global:",
      "  scrape_interval: 1s",
      "  evaluation_interval: 1s",
      "rule_files:",
      `  - ${JSON.stringify(RULES)}`,
      "scrape_configs:",
      "  - job_name: vault-gateway",
      `    metrics_path: ${new URL(metricsUrl).pathname}`,
      "    static_configs:",
      `      - targets: [${JSON.stringify(new URL(metricsUrl).host)}]`,
      ""
    ].join("\n"))
    prometheus = spawn("prometheus", [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dir, "tsdb")}`,
      `--web.listen-address=127.0.0.1:${port}`
    ], { stdio: "ignore" })
    await until(async () => (await fetch(`${prometheusUrl}/-/ready`).catch(() => undefined))?.status === 200, 30_000, "Prometheus to be ready")
  }, 180_000)

  afterAll(async () => {
    await stop(prometheus)
    if (gateway !== undefined) {
      gateway.child.kill("SIGINT")
      await gateway.exited
    }
    fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("scrapes the target and answers the projection's lag and the request counters", async () => {
    for (let i = 0; i < 5; i++) expect((await fetch(`${apiUrl}/status`)).status).toBe(200)
    await until(async () => {
      const up = await query(`up{job="vault-gateway"}`)
      return up.length === 1 && up[0]!.value[1] === "1"
    }, 30_000, "Prometheus to scrape the gateway")

    const lag = await query("vault_gateway_projection_lag_slots")
    expect(lag).toHaveLength(1)
    expect(Number(lag[0]!.value[1])).toBeGreaterThanOrEqual(0)
    const live = await query(`vault_gateway_projection_phase{phase="live"}`)
    expect(live[0]!.value[1]).toBe("1")

    // the requests made above, seen by Prometheus under their route template
    await until(async () => {
      const requests = await query(`sum(vault_gateway_http_requests_total{route="/status",method="GET",status_class="2xx"})`)
      return requests.length === 1 && Number(requests[0]!.value[1]) >= 5
    }, 30_000, "the /status requests to be counted")
    const latency = await query(`sum(vault_gateway_http_request_duration_seconds_count{route="/status"})`)
    expect(Number(latency[0]!.value[1])).toBeGreaterThanOrEqual(5)
  })

  it("loads the alert rules, and none fires on a healthy gateway", async () => {
    const answer = await fetch(`${prometheusUrl}/api/v1/rules`)
    const body = await answer.json() as { data: { groups: ReadonlyArray<{ rules: ReadonlyArray<{ name: string; state: string; health: string }> }> } }
    const rules = body.data.groups.flatMap((group) => group.rules)
    expect(rules.map((rule) => rule.name).sort()).toEqual([
      "VaultGatewayCheckpointStale",
      "VaultGatewayNoLeader",
      "VaultGatewayProjectionLagging",
      "VaultGatewayProjectionNotLive",
      "VaultGatewayServerErrors",
      "VaultGatewayWebSocketResyncs"
    ])
    await until(async () => {
      const evaluated = (await (await fetch(`${prometheusUrl}/api/v1/rules`)).json()) as typeof body
      return evaluated.data.groups.flatMap((group) => group.rules).every((rule) => rule.health === "ok")
    }, 30_000, "every rule to be evaluated")
    const firing = await query("ALERTS")
    expect(firing).toEqual([])
  })

  it("promtool accepts the exposition and the rules", async () => {
    const exposition = await (await fetch(metricsUrl)).text()
    // promtool exits non-zero on a malformed exposition or a lint problem (e.g. a counter without _total)
    const lint = execFileSync("promtool", ["check", "metrics"], { input: exposition, encoding: "utf8" })
    expect(lint).toBe("")
    const rules = execFileSync("promtool", ["check", "rules", RULES], { encoding: "utf8" })
    expect(rules).toContain("SUCCESS: 6 rules found")
  })
})

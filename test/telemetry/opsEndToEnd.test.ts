import http from "node:http"
import type { AddressInfo } from "node:net"
import fs from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, ConfigProvider } from "effect"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import { tracingConfig } from "../../src/telemetry/tracingConfig.ts"
import { sandboxWallets } from "../api/builds/sandboxSigning.ts"
import { type RunningCli, startCli } from "../support/cli.ts"

interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: { readonly stringValue?: string } }>
}

/** An OTLP/HTTP receiver (JSON encoding, what the HTTP exporter sends) keeping every span it gets. */
const startReceiver = async () => {
  const spans: Array<ReceivedSpan> = []
  const server = http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        for (const resource of body.resourceSpans ?? []) {
          for (const scope of resource.scopeSpans ?? []) spans.push(...scope.spans)
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, close: () => server.close() }
}

const methodsOf = (spans: ReadonlyArray<ReceivedSpan>) =>
  spans.flatMap((span) => span.attributes.filter((a) => a.key === "method").map((a) => a.value.stringValue))

const until = async (check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe("tracing configuration", () => {
  const enabled = (env: Record<string, string>) =>
    Effect.runSync(Effect.withConfigProvider(tracingConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))).enabled

  it("is on only with an OTLP endpoint, and the standard switches turn it off", () => {
    expect(enabled({})).toBe(false)
    expect(enabled({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true)
    expect(enabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true)
    expect(enabled({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" })).toBe(false)
    expect(enabled({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_TRACES_EXPORTER: "none" })).toBe(false)
  })
})

describe("a running gateway for operators: status and traces", () => {
  const dir = tempDir("vg-traces-")
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let gateway: RunningCli
  let apiUrl = ""

  beforeAll(async () => {
    receiver = await startReceiver()
    gateway = startCli(["serve"], {
      DATA_DIR: dir,
      PORT: "0",
      SANDBOX_USERS: "10",
      SANDBOX_BUILDERS: "2",
      SANDBOX_HISTORY_DAYS: "2",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: "200"
    })
    apiUrl = (await gateway.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 60_000))[1]!
    await until(async () => (await fetch(`${apiUrl}/ready`)).status === 200, 90_000, "the gateway to be live")
  }, 180_000)

  afterAll(async () => {
    gateway.child.kill("SIGINT")
    await gateway.exited
    receiver.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it("/status reports the backfill, the daily rollup and the checkpoint's age", async () => {
    type Status = {
      backfill: { state: string; done: number; total: number | null; etaSeconds: number | null } | null
      rollup: { state: string; closedThrough: string | null } | null
      checkpointAgeSeconds: number | null
    }
    const status = async () => (await (await fetch(`${apiUrl}/status`)).json()) as Status
    await until(async () => (await status()).backfill?.state === "done", 60_000, "the backfill to finish")
    const done = await status()
    expect(done.backfill!.done).toBeGreaterThan(0)
    expect(done.backfill!.total).toBe(done.backfill!.done)
    expect(done.backfill!.etaSeconds).toBe(0)
    await until(async () => (await status()).rollup?.state === "live", 60_000, "the rollup to be live")
    // two days of sandbox history: yesterday is closed
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    expect((await status()).rollup!.closedThrough! >= yesterday).toBe(true)
    await until(async () => (await status()).checkpointAgeSeconds !== null, 20_000, "a checkpoint")
    expect((await status()).checkpointAgeSeconds).toBeLessThan(30)
  }, 150_000)

  it("a deposit build is one trace: the request's server span with the build's RPC calls below it", async () => {
    const status = await (await fetch(`${apiUrl}/status`)).json() as { rpcUrl: string }
    const user = (await sandboxWallets(status.rpcUrl)).find((wallet) => wallet.role === "user")!
    const key = gateway.output().match(/sandbox partner key: (\S+)/)![1]!
    const vaults = await (await fetch(`${apiUrl}/v2/vaults`, { headers: { "x-api-key": key } })).json() as {
      data: ReadonlyArray<{ bundleKey: string; minDepositAmount: string; paused: boolean }>
    }
    const { bundleKey: vault, minDepositAmount } = vaults.data.find((record) => !record.paused)!
    const build = await fetch(`${apiUrl}/v2/vault/${vault}/tx/deposit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userAddress: user.address, amountRaw: minDepositAmount })
    })
    const answer = await build.json() as { data: { validation: { accepted: boolean } } }
    expect(build.status).toBe(200)
    expect(answer.data.validation, JSON.stringify(answer.data.validation)).toMatchObject({ accepted: true })
    const requestId = build.headers.get("x-request-id")

    const route = "POST /v2/vault/:vaultAddress/tx/deposit"
    const serverSpan = () =>
      receiver.spans.find((span) => span.name === route && span.attributes.some((a) => a.key === "http.request.id" && a.value.stringValue === requestId))
    await until(() => serverSpan() !== undefined, 20_000, "the build's server span")
    const root = serverSpan()!
    expect(root.kind).toBe(2) // SERVER

    // every span of the trace descends from the server span, and some are calls to the RPC node
    const rpcCalls = () => receiver.spans.filter((span) => span.traceId === root.traceId && span.name === "SolanaRpc.call")
    await until(() => rpcCalls().length > 0, 20_000, "the build's RPC spans")
    const byId = new Map(receiver.spans.map((span) => [span.spanId, span]))
    for (const call of rpcCalls()) {
      let at: ReceivedSpan | undefined = call
      while (at !== undefined && at.spanId !== root.spanId) at = at.parentSpanId ? byId.get(at.parentSpanId) : undefined
      expect(at?.spanId).toBe(root.spanId)
    }
    // an accepted build is preflighted by the node (BUILD_SIMULATION is on by default)
    await until(() => methodsOf(rpcCalls()).includes("simulateTransaction"), 20_000, "the preflight's RPC span")
    // SQL is traced too (the key check and the checkpoints query PostgreSQL)
    expect(receiver.spans.some((span) => span.name === "sql.execute")).toBe(true)
  }, 60_000)
})

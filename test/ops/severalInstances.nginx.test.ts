import { type ChildProcess, spawn } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { generateKeyPairSigner } from "@solana/kit"
import { Effect, Exit, Redacted, Scope } from "effect"
import Pg from "pg"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectionUrl, embeddedPostgres, freeLoopbackPort } from "../../layers/postgres/EmbeddedPostgres.ts"
import { tempDir } from "../../src/bench/support/testDatabase.ts"
import { generateApiKey } from "../../src/domain/partnerKeys/apiKeyFormat.ts"
import { DEFAULT_NTBUNDLE_PROGRAM_ID } from "../../src/sandbox/programs/ids.ts"
import { runCli, type RunningCli, startCli } from "../support/cli.ts"
import { chainEvents } from "./severalInstances/chainTruth.ts"
import { nginxConfig } from "./severalInstances/nginxConfig.ts"
import { ReconnectingStream, seqProblems } from "./severalInstances/reconnectingStream.ts"

/**
 * Several gateways behind a real nginx (Debian's package; `.ci/run` installs it), on one PostgreSQL
 * and one sandbox chain process, with partners reading, building and streaming through nginx while
 * the leader is killed with SIGKILL. Runs as its own npm script (`npm run test:nginx`).
 */
const GATEWAYS = 3
const CHECKPOINT_SECONDS = 1
/** README "Running several instances": the lock is tried every second; the new leader then checkpoints at once. */
const TAKEOVER_BOUND_MS = 2_000 + CHECKPOINT_SECONDS * 1_000
/** Headroom for a loaded 2-core CI machine on top of the documented bound. */
const SLACK_MS = 3_000

const until = async <A>(check: () => Promise<A | undefined | false>, timeoutMs: number, what: string): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await check().catch(() => undefined)
    if (value !== undefined && value !== false) return value
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Gateway {
  readonly cli: RunningCli
  readonly url: string
  readonly metricsUrl: string
}

interface Outcome {
  readonly at: number
  readonly ok: boolean
  readonly what: string
}

/** A partner calling `request` back to back until stopped, recording every outcome. */
const steadyLoad = (request: () => Promise<Response>, outcomes: Array<Outcome>, isOk: (status: number) => boolean) => {
  let stopped = false
  const done = (async () => {
    while (!stopped) {
      const at = Date.now()
      try {
        const response = await request()
        await response.arrayBuffer()
        outcomes.push({ at, ok: isOk(response.status), what: `HTTP ${response.status}` })
      } catch (error) {
        outcomes.push({ at, ok: false, what: String(error) })
      }
    }
  })()
  return async () => {
    stopped = true
    await done
  }
}

describe("three gateways behind nginx on one database and one chain", () => {
  const dir = tempDir("vg-nginx-")
  const scope = Effect.runSync(Scope.make())
  const partnerKey = generateApiKey("sandbox")
  const keyed = { "x-api-key": partnerKey }
  let databaseUrl = ""
  let dropDatabase: (() => Promise<void>) | null = null
  let sandbox: RunningCli | undefined
  let rpcUrl = ""
  let wsUrl = ""
  const gateways: Array<Gateway> = []
  let nginx: ChildProcess | undefined
  let entry = ""
  /** Every partner stream, stopped in afterAll too (nginx's graceful stop waits for open connections). */
  const openStreams: Array<ReconnectingStream> = []

  const startGateway = async (index: number): Promise<Gateway> => {
    const cli = startCli(["serve"], {
      RPC_URL: rpcUrl,
      RPC_WS_URL: wsUrl,
      CLUSTER: "sandbox",
      SANDBOX_PARTNER_KEY: partnerKey,
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(dir, `gateway-${index}`),
      PORT: "0",
      METRICS_PORT: "0",
      CHECKPOINT_SECONDS: String(CHECKPOINT_SECONDS),
      KEY_QUOTA_LIMIT: "100000000",
      BUILD_RATE_LIMIT: "100000000",
      // nginx is the client the gateways see: the partner's address is in X-Forwarded-For
      TRUST_PROXY: "true"
    })
    const url = (await cli.waitForOutput(/listening on (http:\/\/[\d.]+:\d+)/, 60_000))[1]!
    const metricsUrl = (await cli.waitForOutput(/metrics on (http:\/\/[\d.]+:\d+\/metrics)/, 60_000))[1]!
    await until(async () => (await fetch(`${url}/ready`)).status === 200, 120_000, `gateway ${index} to be live`)
    return { cli, url, metricsUrl }
  }

  interface Status {
    readonly status: string
    readonly role: string
    readonly checkpointAgeSeconds: number | null
    readonly backfill: { readonly state: string } | null
    readonly rollup: { readonly state: string } | null
  }
  const statusOf = async (gateway: Gateway): Promise<Status> => (await (await fetch(`${gateway.url}/status`)).json()) as Status
  const roleOf = async (gateway: Gateway): Promise<string> => (await statusOf(gateway)).role

  const query = async <Row>(text: string): Promise<Array<Row>> => {
    const client = new Pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      return (await client.query(text)).rows as Array<Row>
    } finally {
      await client.end()
    }
  }

  beforeAll(async () => {
    // One PostgreSQL: DATABASE_URL's server (a scratch database on it), else an embedded one.
    const server = process.env.DATABASE_URL
    if (server !== undefined && server !== "") {
      const name = `vg_nginx_${process.pid}`
      const admin = new Pg.Client({ connectionString: server })
      await admin.connect()
      await admin.query(`CREATE DATABASE ${name}`)
      await admin.end()
      const url = new URL(server)
      url.pathname = `/${name}`
      databaseUrl = url.toString()
      dropDatabase = async () => {
        const again = new Pg.Client({ connectionString: server })
        await again.connect()
        await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await again.end()
      }
    } else {
      const connection = await Effect.runPromise(Scope.extend(embeddedPostgres(path.join(dir, "postgres")), scope))
      databaseUrl = Redacted.value(connectionUrl(connection))
    }

    // One chain: the sandbox as its own process, with activity (users and a keeper) on a real clock.
    sandbox = startCli(["sandbox", "--port", "0", "--users", "24", "--builders", "3", "--activity", "3", "--slot-ms", "400"])
    rpcUrl = (await sandbox.waitForOutput(/sandbox JSON-RPC: (http:\/\/\S+)/, 60_000))[1]!
    wsUrl = (await sandbox.waitForOutput(/sandbox PubSub: +(ws:\/\/\S+)/, 60_000))[1]!

    // The first gateway migrates the database; the others join it.
    gateways.push(await startGateway(0))
    gateways.push(...(await Promise.all([1, 2].map(startGateway))))

    const port = await freeLoopbackPort()
    entry = `http://127.0.0.1:${port}`
    for (const sub of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) fs.mkdirSync(path.join(dir, sub), { mode: 0o777 })
    const conf = path.join(dir, "nginx.conf")
    fs.writeFileSync(conf, nginxConfig({ listenPort: port, upstreams: gateways.map((g) => new URL(g.url).host), prefix: dir }))
    nginx = spawn("nginx", ["-p", dir, "-e", path.join(dir, "error.log"), "-c", conf, "-g", "daemon off;"], { stdio: "ignore" })
    await until(async () => (await fetch(`${entry}/health`)).status === 200, 20_000, "nginx to answer")
  }, 300_000)

  afterAll(async () => {
    for (const stream of openStreams) stream.stop()
    if (nginx !== undefined && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once("exit", resolve))
      nginx.kill("SIGQUIT")
      const late = setTimeout(() => nginx!.kill("SIGKILL"), 5_000)
      await exited
      clearTimeout(late)
    }
    await Promise.all([...gateways.map((g) => g.cli), ...(sandbox === undefined ? [] : [sandbox])].map(async (cli) => {
      if (cli.child.exitCode !== null || cli.child.signalCode !== null) return
      cli.child.kill("SIGINT")
      await cli.exited
    }))
    await dropDatabase?.()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    fs.rmSync(dir, { recursive: true, force: true })
  }, 120_000)

  it("exactly one leads and writes; the others follow; a cursor issued by one is valid on the others", async () => {
    const roles = await Promise.all(gateways.map(roleOf))
    expect(roles.filter((role) => role === "leader")).toHaveLength(1)
    expect(roles.filter((role) => role === "follower")).toHaveLength(GATEWAYS - 1)
    // only the leader writes: the followers' own checkpointer, backfill and rollup have done nothing
    const leader = gateways[roles.indexOf("leader")]!
    await until(async () => (await statusOf(leader)).checkpointAgeSeconds !== null, 20_000, "the leader's checkpoint")
    const leaderStatus = await statusOf(leader)
    expect(leaderStatus.rollup).not.toBeNull()
    expect(leaderStatus.backfill?.state).toBe("done")
    for (const follower of gateways.filter((gateway) => gateway !== leader)) {
      const status = await statusOf(follower)
      expect(status).toMatchObject({ status: "live", role: "follower", checkpointAgeSeconds: null, rollup: null })
      expect(status.backfill?.state ?? "pending").toBe("pending")
      // started after the leader had checkpointed: restored from its checkpoint
      expect(follower.cli.output()).toMatch(/restored \d+ accounts at slot \d+/)
    }
    // a cursor issued by one gateway is accepted by another (one key in the database): a builder's
    // users, a page of one at a time
    const secrets = await query<{ n: string }>("SELECT count(*) AS n FROM cursor_secret")
    expect(Number(secrets[0]!.n)).toBe(1)
    type UsersPage = { data: { nextCursor: string | null } }
    const usersPage = async (gateway: Gateway, referrer: string, cursor?: string) => {
      const answer = await fetch(`${gateway.url}/v2/referrer/${referrer}/users?limit=1${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`, { headers: keyed })
      return { status: answer.status, body: (await answer.json()) as UsersPage }
    }
    // Setup binds one user to each builder; a second comes with the chain's activity, so wait for one.
    const secondUser = async (): Promise<{ referrer: string; cursor: string } | null> => {
      const referrers = await query<{ referrer: string }>(
        "SELECT data->>'referrer' AS referrer FROM program_event WHERE name = 'UserReferrerSet' GROUP BY 1 HAVING count(*) >= 2"
      )
      for (const { referrer } of referrers) {
        const first = await usersPage(gateways[0]!, referrer)
        const cursor = first.body.data?.nextCursor
        if (first.status === 200 && cursor != null) return { referrer, cursor }
      }
      return null
    }
    const withTwo = await until(async () => (await secondUser()) ?? undefined, 60_000, "a builder with two users or more")
    for (const other of gateways.slice(1)) expect((await usersPage(other, withTwo.referrer, withTwo.cursor)).status).toBe(200)
    // the role on the metrics listener too
    const gauges = await Promise.all(gateways.map(async (gateway) => (await (await fetch(gateway.metricsUrl)).text()).match(/^vault_gateway_leader (\d)/m)?.[1]))
    expect(gauges).toEqual(roles.map((role) => (role === "leader" ? "1" : "0")))
  })

  it("a key's quota holds across the three instances within the documented bound (limit - 1 + instances x lease)", async () => {
    const limit = 60
    const issued = await runCli(
      ["keys", "issue", "--name", "quota-check", "--quota-limit", String(limit), "--quota-window-seconds", "86400"],
      { DATABASE_URL: databaseUrl, CLUSTER: "sandbox", DATA_DIR: path.join(dir, "keys-cli") }
    )
    expect(issued.code).toBe(0)
    const key = issued.output.match(/key: (vg_\w+)/)![1]!
    // QUOTA_LEASE_PERCENT 1 (the default): max(1, floor(60 x 1 %)) = 1 request ahead per instance
    const lease = 1
    // round robin over the instances themselves, so every one of them takes a share of the key's requests
    const statuses: Array<number> = []
    const perGateway = gateways.map(() => ({ ok: 0, refused: 0 }))
    await Promise.all([0, 1, 2, 3, 4, 5].map(async (lane) => {
      for (let i = lane; i < 3 * limit; i += 6) {
        const index = i % gateways.length
        const response = await fetch(`${gateways[index]!.url}/v2/vaults`, { headers: { "x-api-key": key } })
        await response.arrayBuffer()
        statuses.push(response.status)
        if (response.status === 200) perGateway[index]!.ok++
        else if (response.status === 429) perGateway[index]!.refused++
      }
    }))
    const accepted = statuses.filter((status) => status === 200).length
    console.log(`several instances: quota ${limit}, ${accepted} accepted over ${gateways.length} instances ${JSON.stringify(perGateway)}`)
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([])
    expect(accepted).toBeGreaterThanOrEqual(limit)
    expect(accepted).toBeLessThanOrEqual(limit - 1 + gateways.length * lease)
    expect(perGateway.every((share) => share.ok > 0)).toBe(true)
    // and through nginx, once the window is used up: refused whichever instance answers
    for (let i = 0; i < 6; i++) expect((await fetch(`${entry}/v2/vaults`, { headers: { "x-api-key": key } })).status).toBe(429)
  }, 60_000)

  it("kill -9 of the leader mid-run: reads and builds keep answering, a follower takes over and checkpoints within the bound, streams resume without a gap, the event log holds every event once", async () => {
    const vaults = ((await (await fetch(`${entry}/v2/vaults`, { headers: keyed })).json()) as { data: Array<{ bundleKey: string }> }).data
    const vault = vaults[0]!.bundleKey
    const user = (await generateKeyPairSigner()).address

    // Partners: steady reads (list and detail), builds, and WebSocket subscribers, all through nginx.
    const reads: Array<Outcome> = []
    const builds: Array<Outcome> = []
    const stops = [
      steadyLoad(() => fetch(`${entry}/v2/vaults`, { headers: keyed }), reads, (status) => status === 200),
      steadyLoad(() => fetch(`${entry}/v2/vault/${vault}`, { headers: keyed }), reads, (status) => status === 200),
      steadyLoad(() => fetch(`${entry}/v2/vault/${vault}`, { headers: keyed }), reads, (status) => status === 200),
      steadyLoad(
        () =>
          fetch(`${entry}/v2/vault/${vault}/tx/deposit`, {
            method: "POST",
            headers: { ...keyed, "content-type": "application/json" },
            body: JSON.stringify({ userAddress: user, amountRaw: "1000000" })
          }),
        builds,
        (status) => status === 200
      )
    ]
    const topics = [`vault:${vault}`, "slots"]
    const streams = Array.from({ length: 2 * GATEWAYS }, () => new ReconnectingStream(`${entry.replace(/^http/, "ws")}/v2/stream`, keyed, topics))
    openStreams.push(...streams)
    const streamStates = () =>
      streams.map((s) => s.sessions.map((session) => `${session.frames.map((frame) => `${frame.type}:${frame.topic ?? frame.code ?? ""}`).slice(0, 6).join(",")}${session.closedAt === null ? "" : ` closed ${session.closedWith} after ${session.closedAt - session.openedAt} ms`}`).join(" | "))
    // About one run in four, one of the six connections is dropped (1006, on both ends) right after
    // its upgrade, before the gateway reads its subscribe: uWS closes an asynchronously upgraded
    // socket now and then (uNetworking/uWebSockets#1928; the upgrade waits for the shared admission).
    // Each connection may be dropped so, independently: the partner reconnects, as partners do; more
    // than half of them dropped fails here.
    const droppedEarly = (stream: ReconnectingStream) => stream.sessions.filter((session) => session.closedAt !== null && session.frames.length === 0)
    await until(async () => streams.every((s) => s.sessions.at(-1)?.closedAt === null && s.sessions.at(-1)!.frames.length >= 4), 20_000, "every stream to get updates")
      .catch((error: Error) => {
        throw new Error(`${error.message}: ${JSON.stringify(streamStates())}`)
      })
    await sleep(3_000)
    const earlyDrops = streams.flatMap(droppedEarly)
    if (earlyDrops.length > 0) console.log(`several instances: connections dropped before their first frame: ${JSON.stringify(streamStates())}`)
    expect(earlyDrops.length).toBeLessThanOrEqual(streams.length / 2)
    expect(streams.every((s) => s.sessions.length === 1 + droppedEarly(s).length)).toBe(true)
    const sessionsBeforeKill = streams.map((s) => s.sessions.length)

    // The leader, killed without a chance to clean up.
    const roles = await Promise.all(gateways.map(roleOf))
    const leaderIndex = roles.indexOf("leader")
    const leader = gateways[leaderIndex]!
    const survivors = gateways.filter((_, index) => index !== leaderIndex)
    const before = await query<{ slot: string }>("SELECT slot FROM checkpoint")
    const killedAt = Date.now()
    leader.cli.child.kill("SIGKILL")
    await leader.cli.exited

    // A survivor takes over and writes a checkpoint within the bound.
    const firstNew = await until(async () => {
      const rows = await query<{ slot: string; written: string }>("SELECT slot, extract(epoch FROM written_at) * 1000 AS written FROM checkpoint")
      const row = rows[0]
      return row !== undefined && Number(row.written) > killedAt ? { slot: Number(row.slot), written: Number(row.written) } : undefined
    }, TAKEOVER_BOUND_MS + SLACK_MS + 5_000, "a checkpoint by the new leader")
    const takeoverMs = firstNew.written - killedAt
    console.log(`several instances: the new leader's first checkpoint (slot ${firstNew.slot}) landed ${takeoverMs} ms after the kill`)
    expect(takeoverMs).toBeLessThanOrEqual(TAKEOVER_BOUND_MS + SLACK_MS)
    expect(firstNew.slot).toBeGreaterThanOrEqual(Number(before[0]!.slot))
    const survivorRoles = await Promise.all(survivors.map(roleOf))
    expect(survivorRoles.sort()).toEqual(["follower", "leader"])
    // and it goes on checkpointing
    await until(async () => {
      const rows = await query<{ slot: string }>("SELECT slot FROM checkpoint")
      return Number(rows[0]!.slot) > firstNew.slot
    }, 10_000, "the next checkpoint")

    // The partners run on through the survivors for a while.
    await sleep(6_000)
    for (const stop of stops) await stop()
    const endedAt = Date.now()

    // Reads and builds: only requests in flight when the leader died may have failed.
    const inFlightWindow = (outcome: Outcome) => outcome.at >= killedAt - 2_000 && outcome.at <= killedAt + 2_000
    for (const [name, outcomes] of [["reads", reads], ["builds", builds]] as const) {
      const failed = outcomes.filter((outcome) => !outcome.ok)
      console.log(`several instances: ${outcomes.length} ${name}, ${failed.length} failed`, failed.slice(0, 5))
      expect(outcomes.filter((o) => o.at > killedAt + 2_000 && o.ok).length, `${name} after the kill`).toBeGreaterThan(10)
      expect(failed.filter((outcome) => !inFlightWindow(outcome)), `${name} failing outside the kill`).toEqual([])
      expect(failed.length, `${name} failing at the kill`).toBeLessThanOrEqual(name === "reads" ? 3 : 1)
    }

    // Streams: the killed gateway's clients reconnected (through nginx, to a survivor) and got fresh
    // snapshots; every session's updates follow its snapshot with no gap in seq.
    for (const stream of streams) stream.stop()
    const reconnected = streams.filter((s, i) => s.sessions.length > sessionsBeforeKill[i]!)
    expect(reconnected.length).toBeGreaterThanOrEqual(1)
    for (const stream of streams) {
      for (const session of stream.sessions.filter((session) => !droppedEarly(stream).includes(session))) {
        const { problems } = seqProblems(session, topics)
        expect(problems).toEqual([])
      }
    }
    for (const stream of reconnected) {
      const last = stream.sessions.at(-1)!
      expect(last.openedAt).toBeGreaterThan(killedAt)
      expect(seqProblems(last, topics).updates).toBeGreaterThan(3)
    }
    console.log(`several instances: ${reconnected.length} of ${streams.length} streams reconnected after the kill, ${endedAt - killedAt} ms run after it`)

    // The event log: every program event of the chain, once (compared with the chain's own answers).
    const truth = await chainEvents(rpcUrl, DEFAULT_NTBUNDLE_PROGRAM_ID)
    const stored = await until(async () => {
      const rows = await query<{ key: string; slot: string }>("SELECT signature || ':' || event_index AS key, slot FROM program_event")
      const keys = new Set(rows.map((row) => row.key))
      return [...truth.events].every((key) => keys.has(key)) ? rows : undefined
    }, 60_000, "the event log to hold every event of the chain")
    const storedSlots = new Map(stored.map((row) => [row.key, Number(row.slot)] as const))
    expect(stored.length).toBe(storedSlots.size)
    // nothing the chain did not emit (the chain moved on meanwhile: compare with its newer answer)
    const later = await chainEvents(rpcUrl, DEFAULT_NTBUNDLE_PROGRAM_ID)
    // (the listing is at "confirmed": events of slots it does not reach yet are not judged)
    const phantom = [...storedSlots.keys()].filter((key) => !later.events.has(key) && storedSlots.get(key)! <= later.newestSlot)
    expect(phantom).toEqual([])
    const transactions = await query<{ signature: string }>("SELECT signature FROM chain_transaction")
    const loggedSignatures = new Set(transactions.map((row) => row.signature))
    expect([...truth.signatures].filter((signature) => !loggedSignatures.has(signature))).toEqual([])
    console.log(`several instances: the event log holds all ${truth.events.size} events of ${truth.signatures.size} program transactions`)
  }, 240_000)

  // Shared per-key quotas across the instances: the lead adds this check with the `quotas` work.
})

import type { ContractFixtures } from "./fixtures.ts"
import { type OpenApiDocument, type Operation, operationsOf } from "./openApiDocument.ts"
import { makePrng } from "./prng.ts"
import { planRequest, type PlannedRequest } from "./requestPlan.ts"
import { type Answer, makeResponseChecker } from "./responseCheck.ts"

export interface Violation {
  readonly operation: string
  readonly variant: string
  readonly request: string
  readonly status: number
  readonly reason: string
  readonly body: string
}

export interface Coverage {
  sent: number
  valid: number
  /** Statuses answered to the valid requests and to all of them. */
  validStatuses: Record<string, number>
  statuses: Record<string, number>
  /** The first answer to a valid request per status other than 200, cut short: why valid requests fail. */
  validRefusals: Record<string, string>
  /** Time spent waiting for answers. */
  millis: number
}

export interface ContractRun {
  readonly seed: number
  readonly requests: number
  readonly violations: ReadonlyArray<Violation>
  /** Per operation id: how many requests, and the statuses answered. */
  readonly coverage: Readonly<Record<string, Coverage>>
  readonly millis: number
}

export interface ContractOptions {
  readonly document: OpenApiDocument
  readonly baseUrl: string
  readonly seed: number
  readonly fixtures: ContractFixtures
  readonly requests: number
  /** Requests in flight at once (default 6). */
  readonly concurrency?: number
  /** Share of valid requests (default 0.5); the rest are hostile variants. */
  readonly validShare?: number
  /**
   * Pages on: a 200 to a valid request whose body has a cursor (`read`) is followed by a request for
   * the next page (query parameter `param`), up to one follow-up per `every` such answers.
   */
  readonly followCursor?: { readonly param: string; readonly read: (body: any) => unknown; readonly every?: number }
  /** Only these operation ids (default: all). */
  readonly only?: ReadonlyArray<string>
}

const cursorOf = (read: (body: any) => unknown, text: string): unknown => {
  try {
    return read(JSON.parse(text))
  } catch {
    return undefined
  }
}

const describe = (request: PlannedRequest) => {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value.length > 80 ? `${value.slice(0, 40)}…(${value.length} chars)` : value}`)
    .join(" | ")
  const target = request.target.length > 200 ? `${request.target.slice(0, 160)}…(${request.target.length} chars)` : request.target
  const body = request.body === undefined ? "" : typeof request.body === "string" && request.body.length <= 200 ? ` body ${request.body}` : ` body (${request.body.length} bytes)`
  return `${request.method} ${target} [${headers}]${body}${request.withSession ? " +session" : ""}`
}

const send = async (baseUrl: string, fixtures: ContractFixtures, request: PlannedRequest): Promise<Answer> => {
  const headers = { ...request.headers }
  if (request.withSession && fixtures.credentials.cookie !== undefined) headers.cookie = await fixtures.credentials.cookie(request.operation.id)
  const response = await fetch(`${baseUrl}${request.target}`, {
    method: request.method,
    headers,
    redirect: "manual",
    ...(request.body === undefined ? {} : { body: request.body })
  })
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    retryAfter: response.headers.get("retry-after"),
    text: await response.text(),
    header: (name) => response.headers.get(name)
  }
}

/**
 * Sends `requests` seeded requests over every operation of the document (valid and hostile) to a
 * running server and checks each answer against the document. Requests are planned from the seed
 * before any is sent, so a seed names one sequence of requests.
 */
export const runContract = async (options: ContractOptions): Promise<ContractRun> => {
  const started = performance.now()
  const random = makePrng(options.seed)
  const operations = operationsOf(options.document).filter((operation) => options.only === undefined || options.only.includes(operation.id))
  if (operations.length === 0) throw new Error("no operation to test")
  const context = { document: options.document, fixtures: options.fixtures, random }
  // every operation gets an equal share, in a seeded order
  const plan: Array<PlannedRequest> = []
  for (let i = 0; i < options.requests; i++) {
    const operation: Operation = i < operations.length ? operations[i]! : random.pick(operations)
    plan.push(planRequest(context, operation, options.validShare ?? 0.5))
  }
  const check = makeResponseChecker(options.document)
  const violations: Array<Violation> = []
  const coverage: Record<string, Coverage> = {}
  const follow = options.followCursor
  let pagesSeen = 0
  let next = 0
  const worker = async () => {
    while (next < plan.length) {
      const request = plan[next++]!
      let answer: Answer
      const sentAt = performance.now()
      try {
        answer = await send(options.baseUrl, options.fixtures, request)
      } catch (error) {
        violations.push({ operation: request.operation.id, variant: request.variant, request: describe(request), status: 0, reason: `no answer: ${String((error as Error).cause ?? error)}`, body: "" })
        continue
      }
      const entry = (coverage[request.operation.id] ??= { sent: 0, valid: 0, validStatuses: {}, validRefusals: {}, statuses: {}, millis: 0 })
      entry.sent++
      entry.millis += performance.now() - sentAt
      if (request.variant === "valid") {
        entry.valid++
        entry.validStatuses[answer.status] = (entry.validStatuses[answer.status] ?? 0) + 1
        if (answer.status !== 200) entry.validRefusals[answer.status] ??= answer.text.slice(0, 160)
      }
      entry.statuses[answer.status] = (entry.statuses[answer.status] ?? 0) + 1
      if (follow !== undefined && answer.status === 200 && (request.variant === "valid" || request.variant === "next-page") && request.operation.parameters.some((p) => p.name === follow.param)) {
        const cursor = cursorOf(follow.read, answer.text)
        if (typeof cursor === "string" && pagesSeen++ % (follow.every ?? 2) === 0) {
          const target = request.target.includes("?") ? `${request.target}&${follow.param}=${encodeURIComponent(cursor)}` : `${request.target}?${follow.param}=${encodeURIComponent(cursor)}`
          plan.push({ ...request, variant: "next-page", target })
        }
      }
      const reason = check(request.operation, answer)
      if (reason !== null) {
        violations.push({ operation: request.operation.id, variant: request.variant, request: describe(request), status: answer.status, reason, body: answer.text.slice(0, 300) })
      }
    }
  }
  // a worker may find the queue empty while another is about to add a next page: loop until drained
  while (next < plan.length) await Promise.all(Array.from({ length: options.concurrency ?? 6 }, worker))
  return { seed: options.seed, requests: plan.length, violations, coverage, millis: Math.round(performance.now() - started) }
}

/** Violations grouped by (operation, status, reason), one example request each: the report a failing run prints. */
export const summarize = (run: ContractRun): string => {
  const groups = new Map<string, { count: number; example: Violation }>()
  for (const violation of run.violations) {
    const key = `${violation.operation} ${violation.status} ${violation.reason.slice(0, 160)}`
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { count: 1, example: violation })
    else group.count++
  }
  return [
    `seed ${run.seed}: ${run.violations.length} violations in ${run.requests} requests (${run.millis} ms); rerun with CONTRACT_SEED=${run.seed}`,
    ...[...groups.values()].map(({ count, example }) =>
      `- ${example.operation} [${example.variant}] x${count}: ${example.reason}\n    request: ${example.request}\n    answer ${example.status}: ${example.body}`
    )
  ].join("\n")
}

/** One line per operation: requests, valid ones and their statuses, time waited. */
export const coverageTable = (run: ContractRun): string =>
  Object.entries(run.coverage)
    .map(([id, entry]) =>
      `${id.padEnd(36)} ${String(entry.sent).padStart(5)} sent, ${String(entry.valid).padStart(4)} valid ${JSON.stringify(entry.validStatuses)} all ${JSON.stringify(entry.statuses)} ${Math.round(entry.millis / entry.sent)} ms avg` +
        Object.entries(entry.validRefusals).map(([status, text]) => `\n    valid -> ${status}: ${text}`).join("")
    )
    .join("\n")

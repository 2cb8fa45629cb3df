import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeJsonRpcClient } from "../../../layers/solana/jsonRpcClient.ts"

/**
 * A node that answers a batch in reverse order, with a large result per request (so the body is
 * parsed item by item), a JSON-RPC error for method "fails", and no answer for method "dropped".
 */
const TEXT = `"${"x".repeat(4_000)}" ]},[`
let server: Server
let url: string
let bodies: Array<unknown> = []

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Array<{ id: number; method: string; params: Array<number> }>
      bodies.push(body)
      const answers = body
        .filter((request) => request.method !== "dropped")
        .map((request) =>
          request.method === "fails"
            ? { jsonrpc: "2.0", id: request.id, error: { code: -32_009, message: "no such thing" } }
            : { jsonrpc: "2.0", id: request.id, result: { n: request.params[0], text: TEXT } }
        )
        .reverse()
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify(answers))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe("JSON-RPC batches", () => {
  it("matches each answer to its request by id and decodes each result with its request's index", async () => {
    bodies = []
    const client = makeJsonRpcClient({ url })
    const requests = Array.from({ length: 40 }, (_, n) => ({ method: n === 7 ? "fails" : n === 9 ? "dropped" : "get", params: [n] }))
    const seen: Array<number> = []
    const answers = await client.batch(requests, undefined, (result, index) => {
      seen.push(index)
      const { n, text } = result as { n: number; text: string }
      return { n, index, length: text.length }
    })
    expect(bodies).toHaveLength(1)
    expect(answers).toHaveLength(40)
    answers.forEach((answer, index) => {
      if (index === 7) expect(answer).toEqual({ ok: false, code: -32_009, message: "no such thing" })
      else if (index === 9) expect(answer).toEqual({ ok: false, code: -32_603, message: "no answer in the batch" })
      else expect(answer).toEqual({ ok: true, result: { n: index, index, length: TEXT.length } })
    })
    // decoded in the order the node answered (reversed), errors and missing answers left out
    expect(seen).toEqual(requests.map((_, n) => n).filter((n) => n !== 7 && n !== 9).reverse())
  })

  it("gives the parsed results when no decode is given", async () => {
    const client = makeJsonRpcClient({ url })
    const answers = await client.batch([{ method: "get", params: [1] }, { method: "get", params: [2] }])
    expect(answers.map((answer) => answer.ok && (answer.result as { n: number }).n)).toEqual([1, 2])
  })

  it("fails the batch with the decoder's own error", async () => {
    const client = makeJsonRpcClient({ url })
    const broken = new RangeError("cannot decode")
    await expect(client.batch([{ method: "get", params: [1] }, { method: "get", params: [2] }], undefined, () => {
      throw broken
    })).rejects.toBe(broken)
  })
})

import zlib from "node:zlib"
import Negotiator from "negotiator"

/** The content codings the server answers in besides `identity`, best first (RFC 9110 §8.4.1). */
export type ContentCoding = "br" | "gzip"

/** Bodies shorter than this go out as they are: a frame's worth of bytes gains little and costs a compression. */
export const MIN_COMPRESSED_BYTES = 1024

/**
 * Bodies up to this compress on the event loop (about half a millisecond for JSON at the levels
 * below); larger ones on zlib's thread pool, so a big page does not stall every other request.
 */
export const COMPRESS_SYNC_MAX_BYTES = 64 * 1024

/**
 * `fast`: bodies compressed per request or once per projection version (gzip 6, brotli 4: brotli's
 * size at gzip's speed). `best`: bodies compressed once for the life of the process (the docs page,
 * the OpenAPI document); brotli above 6 saves a few percent more for several times the CPU.
 */
export type Effort = "fast" | "best"

const LEVELS = {
  fast: { gzip: 6, br: 4 },
  best: { gzip: 9, br: 6 }
} as const

const gzipOptions = (effort: Effort): zlib.ZlibOptions => ({ level: LEVELS[effort].gzip })

const brotliOptions = (effort: Effort, bytes: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_QUALITY]: LEVELS[effort].br,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes
  }
})

/** `body` in `coding`, on the calling thread. */
export const compressSync = (body: string | Uint8Array, coding: ContentCoding, effort: Effort): Buffer =>
  coding === "br" ? zlib.brotliCompressSync(body, brotliOptions(effort, body.length)) : zlib.gzipSync(body, gzipOptions(effort))

/** `body` in `coding`, on zlib's thread pool. */
export const compressAsync = (body: string | Uint8Array, coding: ContentCoding, effort: Effort): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => error === null ? resolve(result) : reject(error)
    if (coding === "br") zlib.brotliCompress(body, brotliOptions(effort, body.length), done)
    else zlib.gzip(body, gzipOptions(effort), done)
  })

/** A body made for one request: compressed here if small enough, else off the event loop. */
export const compressDynamic = (body: string | Uint8Array, coding: ContentCoding): Uint8Array | Promise<Uint8Array> =>
  body.length <= COMPRESS_SYNC_MAX_BYTES ? compressSync(body, coding, "fast") : compressAsync(body, coding, "fast")

const OFFERED = ["br", "gzip", "identity"]

// negotiator 1.0's `preferred` (the server's order among codings the client rates equally) is
// missing from @types/negotiator 0.6.
type EncodingNegotiator = {
  encoding(available: ReadonlyArray<string>, options: { readonly preferred: ReadonlyArray<string> }): string | undefined
}

/** Clients send a handful of distinct headers: each is parsed once while the table has room. */
const MAX_REMEMBERED = 256
/** `null`: the header was parsed and allows no coding. */
const remembered = new Map<string, ContentCoding | null>()

/**
 * The coding to answer a request's `Accept-Encoding` with (q-values, `identity`, `*` and `q=0`
 * exclusions per RFC 9110 §12.5.3), or `undefined` for none. No header, or nothing acceptable on
 * offer, means the body as it is.
 */
export const codingFor = (acceptEncoding: string | undefined): ContentCoding | undefined => {
  if (acceptEncoding === undefined || acceptEncoding === "") return undefined
  const known = remembered.get(acceptEncoding)
  if (known !== undefined) return known ?? undefined
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }) as unknown as EncodingNegotiator
  const chosen = negotiator.encoding(OFFERED, { preferred: OFFERED })
  const coding = chosen === "br" || chosen === "gzip" ? chosen : null
  if (remembered.size >= MAX_REMEMBERED) remembered.clear()
  remembered.set(acceptEncoding, coding)
  return coding ?? undefined
}

/** `Vary`, on every answer whose body may be compressed: a cache must not hand a gzip body to a client that did not ask for it. */
export const VARY_ACCEPT_ENCODING = ["vary", "accept-encoding"] as const

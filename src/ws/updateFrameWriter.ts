import { updateFrameHead } from "./protocol.ts"

const INITIAL_BYTES = 64 * 1024

/**
 * Writes `update` frames (the same text as `updateFrameOfJson`) as UTF-8 bytes into one reused
 * buffer. Handing uWS bytes instead of a string spares a copy of every frame in the JS heap: a
 * string made of pieces is flattened into a new string before uWS can read it, and at thousands of
 * frames per second those copies made most of the young-generation garbage (and its GC pauses).
 *
 * The returned view is valid until the next `write`: uWS copies a published message at once.
 */
export class UpdateFrameWriter {
  #buffer = Buffer.allocUnsafeSlow(INITIAL_BYTES)

  write(topicJson: string, seq: number, asOfJson: string, dataJson: string): Uint8Array {
    const head = updateFrameHead(topicJson, seq, asOfJson)
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const bound = 3 * (head.length + dataJson.length) + 1
    if (bound > this.#buffer.length) this.#buffer = Buffer.allocUnsafeSlow(Math.max(bound, 2 * this.#buffer.length))
    const buffer = this.#buffer
    let length = buffer.write(head, 0, "utf8")
    length += buffer.write(dataJson, length, "utf8")
    buffer[length++] = 0x7d // "}"
    return buffer.subarray(0, length)
  }
}

import { updateFrameHead } from "./protocol.ts"

const INITIAL_BYTES = 64 * 1024
/** Room kept before the data for the frame's head (topic, seq and asOf: about 200 bytes). */
const INITIAL_HEAD_ROOM = 512

/**
 * Writes `update` frames (the same text as `updateFrameOfJson`) as UTF-8 bytes into one reused
 * buffer, in two steps: the data first (`writeData`), so that it can be compared with the topic's
 * last data as bytes before anything else is spent on it, then the head just before it and the
 * closing brace after it (`frame`). Handing uWS bytes instead of a string spares a copy of every
 * frame in the JS heap: a string made of pieces is flattened into a new string before uWS can
 * read it, and at thousands of frames per second those copies made most of the young-generation
 * garbage (and its GC pauses).
 *
 * The returned views are valid until the next `writeData`: uWS copies a published message at once.
 */
export class UpdateFrameWriter {
  #buffer = Buffer.allocUnsafeSlow(INITIAL_BYTES)
  #headRoom = INITIAL_HEAD_ROOM
  #dataJson = ""
  #dataEnd = INITIAL_HEAD_ROOM

  /** Writes the data's bytes; returns them (what `frame` will carry). */
  writeData(dataJson: string): Uint8Array {
    this.#dataJson = dataJson
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const bound = this.#headRoom + 3 * dataJson.length + 1
    if (bound > this.#buffer.length) this.#buffer = Buffer.allocUnsafeSlow(Math.max(bound, 2 * this.#buffer.length))
    this.#dataEnd = this.#headRoom + this.#buffer.write(dataJson, this.#headRoom, "utf8")
    return this.#buffer.subarray(this.#headRoom, this.#dataEnd)
  }

  /** The whole frame around the data last written. */
  frame(topicJson: string, seq: number, asOfJson: string): Uint8Array {
    const head = updateFrameHead(topicJson, seq, asOfJson)
    const headBytes = Buffer.byteLength(head, "utf8")
    if (headBytes > this.#headRoom) {
      this.#headRoom = 2 * headBytes
      this.writeData(this.#dataJson)
    }
    const start = this.#headRoom - headBytes
    this.#buffer.write(head, start, "utf8")
    this.#buffer[this.#dataEnd] = 0x7d // "}"
    return this.#buffer.subarray(start, this.#dataEnd + 1)
  }
}

/**
 * The data last published on each topic, as UTF-8 bytes (an update goes out only when its data
 * differs). Kept outside the JS heap, each topic's buffer reused while the data fits: as strings,
 * the values of thousands of topics, each replaced many times a second, were most of what every
 * young-generation GC had to copy.
 */
export class LastData {
  readonly #entries = new Map<string, { bytes: Buffer; length: number }>()

  has(topic: string): boolean {
    return this.#entries.has(topic)
  }

  /** Whether `data` equals the topic's last data (false before its first). */
  equals(topic: string, data: Uint8Array): boolean {
    const entry = this.#entries.get(topic)
    return entry !== undefined && entry.length === data.length && entry.bytes.compare(data, 0, data.length, 0, entry.length) === 0
  }

  record(topic: string, data: Uint8Array): void {
    const entry = this.#entries.get(topic)
    if (entry !== undefined && entry.bytes.length >= data.length) {
      entry.bytes.set(data)
      entry.length = data.length
      return
    }
    // Room to spare: a value's length moves by a few digits from one update to the next.
    const bytes = Buffer.allocUnsafeSlow(Math.max(data.length + 64, 2 * (entry?.bytes.length ?? 0)))
    bytes.set(data)
    this.#entries.set(topic, { bytes, length: data.length })
  }

  delete(topic: string): void {
    this.#entries.delete(topic)
  }
}

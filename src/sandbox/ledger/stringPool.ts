/**
 * One copy of each string seen often: the ledger keeps every landed transaction (30 days of
 * history is tens of thousands), and most of what it holds repeats from one to the next (account
 * keys, mints, token programs, the runtime's `invoke`/`success`/`consumed` log lines, each built
 * by concatenation as a chain of string pieces). Pooled, each is stored once, flat.
 * Bounded: past `capacity` distinct strings, new ones are kept as they are (still correct).
 */
export class StringPool {
  private readonly pool = new Map<string, string>()

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.pool.size
  }

  intern(text: string): string {
    const pooled = this.pool.get(text)
    if (pooled !== undefined) return pooled
    if (this.pool.size >= this.capacity) return text
    // A flat copy: `text` may be a chain of pieces (`a + b`), each a separate heap object.
    const flat = Buffer.from(text, "utf8").toString("utf8")
    this.pool.set(flat, flat)
    return flat
  }
}

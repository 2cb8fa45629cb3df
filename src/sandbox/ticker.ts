/**
 * The automatic clock: one slot per `slotMs` of wall time. Slots due are computed from the wall
 * clock, so a stalled event loop catches up instead of drifting (at most `maxCatchUp` at once).
 * The timer does not keep the process alive by itself.
 */
export class SlotTicker {
  private timer: NodeJS.Timeout | undefined
  private nextSlotAtMs = 0

  constructor(
    private readonly slotMs: number,
    private readonly advance: (slots: number) => void,
    private readonly maxCatchUp = 1000
  ) {}

  start(): void {
    if (this.timer !== undefined) return
    this.nextSlotAtMs = Date.now() + this.slotMs
    this.schedule()
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }

  private schedule(): void {
    this.timer = setTimeout(() => this.tick(), Math.max(0, this.nextSlotAtMs - Date.now()))
    this.timer.unref()
  }

  private tick(): void {
    const now = Date.now()
    let due = 0
    while (this.nextSlotAtMs <= now && due < this.maxCatchUp) {
      due++
      this.nextSlotAtMs += this.slotMs
    }
    if (this.nextSlotAtMs <= now) this.nextSlotAtMs = now + this.slotMs
    try {
      if (due > 0) this.advance(due)
    } finally {
      if (this.timer !== undefined) this.schedule()
    }
  }
}

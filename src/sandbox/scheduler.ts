/**
 * Work that runs as slots advance: the hook where a keeper (or a scenario) registers per-slot
 * tasks. Tasks run synchronously, in registration order, right after the slot begins; a
 * transaction they submit lands in that slot. A failing task is reported and does not stop the
 * others or the clock.
 */
export type SlotTask = (slot: number) => void

export class SlotScheduler {
  private readonly everySlot = new Set<SlotTask>()
  private readonly once = new Map<number, SlotTask[]>()

  /** Runs `task` at every new slot; returns the unregister function. */
  onSlot(task: SlotTask): () => void {
    this.everySlot.add(task)
    return () => this.everySlot.delete(task)
  }

  /** Runs `task` once when `slot` begins (immediately on the next slot if it already passed). */
  at(slot: number, task: SlotTask): () => void {
    const tasks = this.once.get(slot) ?? []
    tasks.push(task)
    this.once.set(slot, tasks)
    return () => {
      const remaining = this.once.get(slot)?.filter((candidate) => candidate !== task)
      if (remaining === undefined || remaining.length === 0) this.once.delete(slot)
      else this.once.set(slot, remaining)
    }
  }

  /** Called by the chain when `slot` begins. */
  runSlot(slot: number): void {
    for (const [dueSlot, tasks] of this.once) {
      if (dueSlot > slot) continue
      this.once.delete(dueSlot)
      for (const task of tasks) this.runTask(task, slot)
    }
    for (const task of this.everySlot) this.runTask(task, slot)
  }

  private runTask(task: SlotTask, slot: number): void {
    try {
      task(slot)
    } catch (error) {
      console.error(`sandbox slot task failed at slot ${slot}`, error)
    }
  }
}

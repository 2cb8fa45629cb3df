import { closeCounter, NO_TAGS, wsConnections, wsFrames, wsResyncs, wsSubscriptions } from "./instruments.ts"

/** What the WebSocket hub counts for the metrics; the no-op one when the metrics listener is off. */
export interface WsMeter {
  readonly opened: () => void
  readonly closed: (code: number, subscriptions: number) => void
  readonly subscribed: (change: number) => void
  readonly published: () => void
  readonly resynced: () => void
}

export const wsMeter: WsMeter = {
  opened: () => wsConnections.unsafeModify(1, NO_TAGS),
  closed: (code, subscriptions) => {
    wsConnections.unsafeModify(-1, NO_TAGS)
    wsSubscriptions.unsafeModify(-subscriptions, NO_TAGS)
    closeCounter(code).update(1)
  },
  subscribed: (change) => wsSubscriptions.unsafeModify(change, NO_TAGS),
  published: () => wsFrames.unsafeUpdate(1, NO_TAGS),
  resynced: () => wsResyncs.unsafeUpdate(1, NO_TAGS)
}

const nothing = () => {}
export const noWsMeter: WsMeter = { opened: nothing, closed: nothing, subscribed: nothing, published: nothing, resynced: nothing }

// `ws` ships no types and @types/ws is not a dependency: the little the tests use.
declare module "ws" {
  import type { EventEmitter } from "node:events"
  class WebSocket extends EventEmitter {
    constructor(url: string, options?: { readonly headers?: Record<string, string> })
    readonly readyState: number
    send(data: string): void
    close(code?: number): void
    terminate(): void
    pause(): void
    resume(): void
  }
  export default WebSocket
}

/**
 * A handler's success with response headers of its own (e.g. `Set-Cookie`): the transport encodes
 * `value` as the endpoint's success and adds `headers`. Header names and values must not hold line
 * breaks (the transport refuses them).
 */
export class WithHeaders<A> {
  constructor(readonly value: A, readonly headers: ReadonlyArray<readonly [name: string, value: string]>) {}
}

import { Context, Effect, Option, Stream } from "effect"

/** Whether this instance is the one writer of the shared database (checkpoints, backfill, rollups). */
export type LeadershipRole = "leader" | "follower"

/**
 * Leadership among the gateways sharing one database: at most one leader at a time, and another
 * instance takes over within a bounded time when the leader dies. Without this service (one
 * instance, tests) the instance is the leader.
 */
export class Leadership extends Context.Tag("Leadership")<
  Leadership,
  {
    /** The role now: synchronous, for hot paths and `/status`. */
    readonly current: () => LeadershipRole
    /** The role now, then every change. */
    readonly changes: Stream.Stream<LeadershipRole>
  }
>() {}

/** This instance's role: the leader when no `Leadership` is provided. */
export const currentRole = (leadership: Option.Option<Leadership["Type"]>): LeadershipRole =>
  Option.isSome(leadership) ? leadership.value.current() : "leader"

/**
 * Runs `effect` while this instance leads: started on becoming the leader, interrupted on stepping
 * down, started again on the next election. Without `Leadership` it simply runs. Never ends by itself
 * while `effect` runs; ends when `effect` ends on the only term it gets.
 */
export const whenLeader = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<void, E, R> =>
  Effect.flatMap(Effect.serviceOption(Leadership), (leadership) =>
    Option.isNone(leadership)
      ? Effect.asVoid(effect)
      : leadership.value.changes.pipe(
        Stream.changes,
        Stream.flatMap((role) => (role === "leader" ? Stream.fromEffect(effect) : Stream.empty), { switch: true }),
        Stream.runDrain
      ))

/** Waits until this instance leads (at once without `Leadership`). */
export const awaitLeadership: Effect.Effect<void> = Effect.flatMap(Effect.serviceOption(Leadership), (leadership) =>
  Option.isNone(leadership)
    ? Effect.void
    : leadership.value.changes.pipe(Stream.filter((role) => role === "leader"), Stream.take(1), Stream.runDrain))

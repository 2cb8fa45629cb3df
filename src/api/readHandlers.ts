import { Layer } from "effect"
import { PlatformHandlersLive } from "./platform/PlatformHandlers.ts"
import { UsersHandlersLive } from "./users/UsersHandlers.ts"
import { VaultsHandlersLive } from "./vaults/VaultsHandlers.ts"

/** The handlers of every read group served from the projection (they need `Projection` and `Prices`). */
export const ReadHandlersLive = Layer.mergeAll(VaultsHandlersLive, UsersHandlersLive, PlatformHandlersLive)

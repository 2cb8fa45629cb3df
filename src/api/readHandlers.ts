import { Layer } from "effect"
import { HistoryHandlersLive } from "./history/HistoryHandlers.ts"
import { LegacyDeprecationLive } from "./legacy/LegacyDeprecation.ts"
import { LegacyHandlersLive } from "./legacy/LegacyHandlers.ts"
import { PlatformHandlersLive } from "./platform/PlatformHandlers.ts"
import { UsersHandlersLive } from "./users/UsersHandlers.ts"
import { VaultsHandlersLive } from "./vaults/VaultsHandlers.ts"

/** The handlers of every read group served from the projection (they need `Projection`, `Prices` and `VaultHistory`). */
export const ReadHandlersLive = Layer.mergeAll(
  VaultsHandlersLive,
  UsersHandlersLive,
  PlatformHandlersLive,
  HistoryHandlersLive,
  LegacyHandlersLive,
  LegacyDeprecationLive
)

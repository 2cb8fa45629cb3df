import { Layer } from "effect"
import { HistoryHandlersLive } from "./history/HistoryHandlers.ts"
import { VaultSeriesHandlersLive } from "./history/VaultSeriesHandlers.ts"
import { LegacyDeprecationLive } from "./legacy/LegacyDeprecation.ts"
import { LegacyHandlersLive } from "./legacy/LegacyHandlers.ts"
import { PlatformHandlersLive } from "./platform/PlatformHandlers.ts"
import { UsersHandlersLive } from "./users/UsersHandlers.ts"
import { VaultsHandlersLive } from "./vaults/VaultsHandlers.ts"

/** The handlers of every read group served from the projection (they need `Projection`, `Prices`, `VaultHistory` and `VaultSeries`). */
export const ReadHandlersLive = Layer.mergeAll(
  VaultsHandlersLive,
  UsersHandlersLive,
  PlatformHandlersLive,
  HistoryHandlersLive,
  VaultSeriesHandlersLive,
  LegacyHandlersLive,
  LegacyDeprecationLive
)

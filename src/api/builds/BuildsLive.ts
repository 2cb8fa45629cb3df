import { Layer } from "effect"
import { BuildMeterLive, type BuildMeterOptions } from "./BuildMeterLive.ts"
import { BuildsHandlersLive } from "./BuildsHandlers.ts"
import { LegacyBuildDeprecationLive, LegacyBuildsHandlersLive } from "./LegacyBuildsHandlers.ts"

/** The builders' handlers (v2 and legacy v1) and their per-IP meter, as `serve` and the tests compose them. */
export const BuildsLive = (meter: BuildMeterOptions) =>
  Layer.mergeAll(BuildsHandlersLive, LegacyBuildsHandlersLive, LegacyBuildDeprecationLive, BuildMeterLive(meter))

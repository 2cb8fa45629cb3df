import { Layer } from "effect"
import { BuildMeterLive, type BuildMeterOptions } from "./BuildMeterLive.ts"
import { BuildsHandlersLive } from "./BuildsHandlers.ts"

/** The builders' handlers and their per-IP meter, as `serve` and the tests compose them. */
export const BuildsLive = (meter: BuildMeterOptions) => Layer.merge(BuildsHandlersLive, BuildMeterLive(meter))

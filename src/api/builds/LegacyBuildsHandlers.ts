import type { Address } from "@solana/kit"
import { Effect } from "effect"
import { catalogEntryById } from "../../domain/catalog.ts"
import type { RejectionReason } from "../../domain/builds/index.ts"
import type { LegacyWireInstruction } from "../../tx/legacyInstruction.ts"
import { Api } from "../Api.ts"
import { NotFound } from "../errors.ts"
import { implementGroup } from "../handlers.ts"
import { implementMiddleware } from "../middleware.ts"
import { makeBuildFlow } from "./buildFlow.ts"
import { BuildRefused, LegacyBuildDeprecation } from "./LegacyBuildsApi.ts"

const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111"
const LEGACY_PATH = /^\/api\/v1\/vault\/(\d{1,12})\/(deposit|withdraw)-instructions\/?$/

export const LegacyBuildDeprecationLive = implementMiddleware(LegacyBuildDeprecation, (request) => {
  const match = LEGACY_PATH.exec(request.path)
  const entry = match === null ? null : catalogEntryById(Number(match[1]))
  const successor = match === null || entry === null ? "/v2/vaults" : `/v2/vault/${entry.registry.address}/tx/${match[2]}`
  return Effect.succeed({ headers: [["deprecation", "true"], ["link", `<${successor}>; rel="successor-version"`]] as const })
})

type Built = { readonly validation: { readonly accepted: boolean; readonly rejectionReasons: ReadonlyArray<RejectionReason> } } & {
  readonly instructions?: ReadonlyArray<LegacyWireInstruction>
}

/** The v2 build, answered in the v1 shape: the program's instructions (the client adds its own compute budget). */
export const LegacyBuildsHandlersLive = implementGroup(
  Api,
  "legacyBuilds",
  Effect.gen(function*() {
    const flow = yield* makeBuildFlow
    const legacy = (
      vaultId: number,
      payload: unknown,
      build: (vault: Address, payload: unknown) => Effect.Effect<{ readonly data: Built }, any>
    ) => {
      const entry = catalogEntryById(vaultId)
      if (entry === null) return Effect.fail(new NotFound({ code: "VAULT_NOT_FOUND", message: `no vault with id ${vaultId}` }))
      return Effect.flatMap(build(entry.registry.address, payload), ({ data: built }) =>
        built.validation.accepted && built.instructions !== undefined
          ? Effect.succeed({
            success: true as const,
            data: {
              vaultId,
              chain: "solana" as const,
              depositToken: entry.registry.depositToken as string,
              instructions: built.instructions.filter((ix) => ix.programId !== COMPUTE_BUDGET_PROGRAM)
            }
          })
          : Effect.fail(
            new BuildRefused({
              code: "BUILD_REFUSED",
              rejectionReasons: built.validation.rejectionReasons,
              message: built.validation.rejectionReasons.map((reason) => reason.message).join("; ")
            })
          ))
    }
    return {
      depositInstructions: ({ path, payload }) => legacy(path.vaultId, payload, flow.deposit),
      withdrawInstructions: ({ path, payload }) => legacy(path.vaultId, payload, flow.withdraw)
    }
  })
)

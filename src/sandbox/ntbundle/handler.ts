import type { InstructionArgsByName, InstructionName } from "../../ntbundle/instructions.ts"
import type { InvocationContext } from "../runtime/program.ts"

/** One modelled instruction: runs against the invocation context with its decoded arguments. */
export type InstructionHandler<N extends InstructionName> = (context: InvocationContext, args: InstructionArgsByName[N]) => void

export type HandlerTable = { readonly [N in InstructionName]?: InstructionHandler<N> }

export * from "./compileV0.ts"
export * from "./legacyInstruction.ts"
export { compareKitOrder, kitSortKey } from "./staticAddress.ts"

export * from "./compileV0.ts"
export * from "./legacyInstruction.ts"
export { kitSortKey, staticAddress, type StaticAddress } from "./staticAddress.ts"

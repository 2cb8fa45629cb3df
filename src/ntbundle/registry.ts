import { address, type Address } from "@solana/kit"
import { DEFAULT_NTBUNDLE_PROGRAM_ID, isMainLayoutNtbundleProgram, type Cluster } from "./programs.ts"
import registryFile from "./registry.json" with { type: "json" }
import { isDepositTokenSymbol, tokenBySymbol, type DepositTokenSymbol, type TokenInfo } from "./tokens.ts"

/** A vault of the public registry served by the ntbundle program (registry type "Bundle"). */
export interface RegistryVault {
  readonly cluster: Cluster
  /** The legacy (v1 API) numeric vault id. */
  readonly id: number
  readonly name: string
  readonly subname: string | null
  /** `name (subname)`, or just the name. */
  readonly displayName: string
  /** The Bundle account: the vault's v2 identifier. */
  readonly address: Address
  /** The program owning the vault: the cluster default unless the entry overrides it. */
  readonly program: Address
  /** False for vaults on a deployment whose layout our codecs do not decode (vault 69). */
  readonly mainLayout: boolean
  readonly depositToken: DepositTokenSymbol
  readonly token: TokenInfo
  readonly category: string
  readonly pointsEnabled: boolean
  readonly pointsMultiplier: number | null
}

interface FileEntry {
  readonly id: number
  readonly name: string
  readonly subname?: string
  readonly address: string
  readonly program?: string
  readonly token: string
  readonly category: string
  readonly pointsEnabled: boolean
  readonly pointsMultiplier?: number
}

// The JSON is generated and committed with the code, so a malformed row is a build defect: fail at load.
const toVault = (cluster: Cluster, entry: FileEntry): RegistryVault => {
  if (!isDepositTokenSymbol(entry.token)) throw new Error(`registry vault ${entry.id}: unknown token ${entry.token}`)
  const program = entry.program === undefined ? DEFAULT_NTBUNDLE_PROGRAM_ID[cluster] : address(entry.program)
  return {
    cluster,
    id: entry.id,
    name: entry.name,
    subname: entry.subname ?? null,
    displayName: entry.subname === undefined ? entry.name : `${entry.name} (${entry.subname})`,
    address: address(entry.address),
    program,
    mainLayout: isMainLayoutNtbundleProgram(program),
    depositToken: entry.token,
    token: tokenBySymbol(cluster, entry.token),
    category: entry.category,
    pointsEnabled: entry.pointsEnabled,
    pointsMultiplier: entry.pointsMultiplier ?? null
  }
}

interface ClusterIndex {
  readonly all: ReadonlyArray<RegistryVault>
  readonly byId: ReadonlyMap<number, RegistryVault>
  readonly byAddress: ReadonlyMap<Address, RegistryVault>
}

const indexCluster = (cluster: Cluster, entries: ReadonlyArray<FileEntry>): ClusterIndex => {
  const all = entries.map((entry) => toVault(cluster, entry))
  return {
    all,
    byId: new Map(all.map((vault) => [vault.id, vault])),
    byAddress: new Map(all.map((vault) => [vault.address, vault]))
  }
}

const registry: Readonly<Record<Cluster, ClusterIndex>> = {
  mainnet: indexCluster("mainnet", registryFile.mainnet),
  devnet: indexCluster("devnet", registryFile.devnet)
}

/** Every registry vault of a cluster, by ascending id. */
export const registryVaults = (cluster: Cluster): ReadonlyArray<RegistryVault> => registry[cluster].all

/** Resolves a legacy numeric vault id. */
export const registryVaultById = (cluster: Cluster, id: number): RegistryVault | undefined => registry[cluster].byId.get(id)

export const registryVaultByAddress = (cluster: Cluster, vaultAddress: Address | string): RegistryVault | undefined =>
  registry[cluster].byAddress.get(vaultAddress as Address)

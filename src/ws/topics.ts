import { isAddress } from "@solana/kit"

/** A parsed topic name; `name` is the canonical string, also the uWS topic. */
export type Topic =
  | { readonly kind: "vault"; readonly name: string; readonly vault: string }
  | { readonly kind: "user"; readonly name: string; readonly vault: string; readonly wallet: string }
  | { readonly kind: "referrer"; readonly name: string; readonly referrer: string }
  | { readonly kind: "status"; readonly name: "status" }
  | { readonly kind: "slots"; readonly name: "slots" }

/** Topics whose data comes from the projection state (held while it is not live). */
export const isDataTopic = (topic: Topic): boolean => topic.kind !== "status"

export const vaultTopic = (vault: string): string => `vault:${vault}`
export const userTopic = (vault: string, wallet: string): string => `user:${vault}:${wallet}`
export const referrerTopic = (wallet: string): string => `referrer:${wallet}`

/** The topic a client names, or null when it is not one of the protocol's. */
export const parseTopic = (name: string): Topic | null => {
  if (name === "status") return { kind: "status", name }
  if (name === "slots") return { kind: "slots", name }
  const parts = name.split(":")
  if (parts[0] === "vault" && parts.length === 2 && isAddress(parts[1]!)) {
    return { kind: "vault", name, vault: parts[1]! }
  }
  if (parts[0] === "referrer" && parts.length === 2 && isAddress(parts[1]!)) {
    return { kind: "referrer", name, referrer: parts[1]! }
  }
  if (parts[0] === "user" && parts.length === 3 && isAddress(parts[1]!) && isAddress(parts[2]!)) {
    return { kind: "user", name, vault: parts[1]!, wallet: parts[2]! }
  }
  return null
}

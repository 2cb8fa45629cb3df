import type { AuditEntry, Organization, OrganizationCode, OrganizationKey } from "../../../services/Organizations.ts"
import type { SessionLifetimes, WalletSessionRecord } from "../../../services/WalletSessions.ts"
import type { KeyView } from "./schemas.ts"

/** Store records as the control plane's JSON shapes (times as ISO strings). */

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

export const organizationView = (organization: Organization) => ({
  id: organization.id,
  ownerWallet: organization.ownerWallet,
  createdAt: organization.createdAt.toISOString()
})

export const sessionView = (session: WalletSessionRecord, lifetimes: SessionLifetimes, currentId: string | null) => ({
  id: session.id,
  wallet: session.wallet,
  createdAt: session.createdAt.toISOString(),
  lastSeenAt: session.lastSeenAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
  idleTimeoutSeconds: lifetimes.idleSeconds,
  current: session.id === currentId
})

export const keyView = (key: OrganizationKey, now: number): KeyView => ({
  id: key.id,
  name: key.name,
  environment: key.environment,
  prefix: key.prefix,
  last4: key.last4,
  scopes: [...key.scopes],
  quota: { limit: key.quotaLimit, windowSeconds: key.quotaWindowSeconds },
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: iso(key.lastUsedAt),
  expiresAt: iso(key.expiresAt),
  revokedAt: iso(key.revokedAt),
  active: key.revokedAt === null && (key.expiresAt === null || key.expiresAt.getTime() > now)
})

export const codeView = (code: OrganizationCode) => ({
  code: code.code,
  enabled: code.enabled,
  referrer: code.referrer,
  createdAt: code.createdAt.toISOString(),
  updatedAt: code.updatedAt.toISOString()
})

export const auditView = (entry: AuditEntry) => ({
  id: entry.id,
  wallet: entry.wallet,
  action: entry.action,
  details: entry.details,
  createdAt: entry.createdAt.toISOString()
})

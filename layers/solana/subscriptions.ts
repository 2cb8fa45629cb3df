import { createDefaultRpcSubscriptionsTransport, createDefaultSolanaRpcSubscriptionsChannelCreator, createSolanaRpcSubscriptionsFromTransport } from "@solana/kit"

/**
 * All subscriptions share one WebSocket: Solana delivers the notifications of one connection in
 * order, which is what lets a slot notification vouch for the slots before it.
 */
export const makeSubscriptions = (wsUrl: string) =>
  createSolanaRpcSubscriptionsFromTransport(
    createDefaultRpcSubscriptionsTransport({
      createChannel: createDefaultSolanaRpcSubscriptionsChannelCreator({
        url: wsUrl,
        minChannels: 1,
        maxSubscriptionsPerChannel: 1_000,
        intervalMs: 5_000
      })
    })
  )

export type SolanaSubscriptions = ReturnType<typeof makeSubscriptions>

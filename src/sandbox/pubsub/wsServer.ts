import uws from "uwebsockets"
import type { Faults } from "../faults.ts"
import type { Notifier } from "./notifier.ts"
import type { Connection } from "./outbox.ts"
import { handlePubSubRequest } from "./requests.ts"
import type { SubscriptionRegistry } from "./subscriptions.ts"

/** Solana's PubSub endpoint: a WebSocket server (any path) speaking the subscription methods. */
export interface PubSubServer {
  readonly port: number
  readonly connectionCount: () => number
  readonly close: () => void
}

interface SocketData {
  connection: SocketConnection | undefined
}

interface SocketConnection extends Connection {
  closed: boolean
  readonly socket: uws.WebSocket<SocketData>
}

const MAX_BACKPRESSURE_BYTES = 64 * 1024 * 1024

export const listenPubSub = (
  host: string,
  port: number,
  registry: SubscriptionRegistry,
  notifier: Notifier,
  faults: Faults
): PubSubServer | undefined => {
  const connections = new Set<SocketConnection>()
  let nextConnectionId = 0
  const app = uws.App()
  app.ws<SocketData>("/*", {
    maxPayloadLength: 1024 * 1024,
    idleTimeout: 120,
    sendPingsAutomatically: true,
    maxBackpressure: MAX_BACKPRESSURE_BYTES,
    // A subscriber too slow to keep up is disconnected (as a node does) rather than silently skipped.
    closeOnBackpressureLimit: 1,
    upgrade: (res, req, context) => {
      res.upgrade<SocketData>(
        { connection: undefined },
        req.getHeader("sec-websocket-key"),
        req.getHeader("sec-websocket-protocol"),
        req.getHeader("sec-websocket-extensions"),
        context
      )
    },
    open: (socket) => {
      const connection: SocketConnection = {
        id: nextConnectionId++,
        closed: false,
        socket,
        sendBatch: (messages) => {
          if (connection.closed) return
          socket.cork(() => {
            for (const message of messages) socket.send(message, false)
          })
        }
      }
      socket.getUserData().connection = connection
      connections.add(connection)
    },
    message: (socket, message) => {
      const connection = socket.getUserData().connection
      if (connection === undefined) return
      const reply = handlePubSubRequest(Buffer.from(message).toString("utf8"), connection, registry, notifier)
      if (reply !== undefined) socket.send(reply, false)
    },
    close: (socket) => {
      const connection = socket.getUserData().connection
      if (connection === undefined) return
      connection.closed = true
      connections.delete(connection)
      registry.removeConnection(connection)
    }
  })

  let listenSocket: uws.us_listen_socket | false = false
  app.listen(host, port, (socket) => {
    listenSocket = socket
  })
  if (listenSocket === false) return undefined
  const boundPort = uws.us_socket_local_port(listenSocket as unknown as uws.us_socket)

  const stopListening = faults.listen({
    closeSockets: () => {
      for (const connection of Array.from(connections)) connection.socket.close()
    },
    stallEnded: () => undefined
  })

  return {
    port: boundPort,
    connectionCount: () => connections.size,
    close: () => {
      stopListening()
      for (const connection of Array.from(connections)) connection.socket.close()
      app.close()
    }
  }
}

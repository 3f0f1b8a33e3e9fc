// The node:stream Duplex over one TcpConnection. Backpressure both ways: writes are acknowledged
// to the writer only while the connection's send buffer has room, and bytes move from the
// connection's receive queue into the stream only while the reader wants more, so an unread
// stream closes the advertised window. end() sends a FIN while reading goes on (half-close).
import { Duplex } from 'node:stream'
import type { AgentError } from '../../errors.js'
import { NetstackClosedError } from '../../errors.js'
import type { TcpConnection } from './tcp-connection.js'

export interface TcpSocketInfo {
  localAddress: string
  localPort: number
  remoteAddress: string
  remotePort: number
  /** Keep writing after the peer's FIN (node:net semantics; default false ends our side too). */
  allowHalfOpen?: boolean
}

export class TcpSocket extends Duplex {
  readonly localAddress: string
  readonly localPort: number
  readonly remoteAddress: string
  readonly remotePort: number
  readonly remoteFamily = 'IPv4'
  readonly #conn: TcpConnection
  #wantRead = false
  #pushedEnd = false
  #pendingWrite: ((error?: Error | null) => void) | undefined

  constructor(conn: TcpConnection, info: TcpSocketInfo) {
    super({ allowHalfOpen: info.allowHalfOpen ?? false, readableHighWaterMark: 64 * 1024, writableHighWaterMark: 64 * 1024 })
    this.#conn = conn
    this.localAddress = info.localAddress
    this.localPort = info.localPort
    this.remoteAddress = info.remoteAddress
    this.remotePort = info.remotePort
  }

  /** The TCP state, for diagnostics. */
  get tcpState(): string {
    return this.#conn.state
  }

  // net.Socket compatibility for callers that tune sockets; segments already go out at once.
  setNoDelay(_noDelay?: boolean): this {
    return this
  }

  setKeepAlive(_enable?: boolean, _initialDelayMs?: number): this {
    return this
  }

  override _read(): void {
    this.#wantRead = true
    this.#pump()
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const conn = this.#conn
    if (conn.state === 'CLOSED' || conn.finQueued) {
      callback(new NetstackClosedError('TCP connection is closed', { details: { remotePort: this.remotePort } }))
      return
    }
    conn.write(chunk)
    if (conn.sendBufferFree > 0) callback()
    else this.#pendingWrite = callback
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#conn.close()
    callback()
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const conn = this.#conn
    // After both FINs the connection finishes on its own (CLOSING, LAST_ACK and TIME_WAIT all end
    // by timer or retransmission limit, delivering what is still unacknowledged); anything else is
    // an abort and the peer hears a RST.
    if (conn.state !== 'CLOSED' && (error || !conn.finQueued || !conn.finReceived)) conn.abort()
    this.#failPendingWrite(error ?? new NetstackClosedError('TCP socket destroyed'))
    callback(error)
  }

  /** The connection has new in-order data or its FIN. */
  onConnectionReadable(): void {
    this.#pump()
  }

  onConnectionWritable(): void {
    const callback = this.#pendingWrite
    if (callback && this.#conn.sendBufferFree > 0) {
      this.#pendingWrite = undefined
      callback()
    }
  }

  onConnectionClosed(error?: AgentError): void {
    if (error) {
      this.destroy(error)
      return
    }
    // A graceful close (or our own abort): unread data stays readable.
    this.#failPendingWrite(new NetstackClosedError('TCP connection closed'))
    this.#pump()
  }

  #failPendingWrite(error: Error): void {
    const callback = this.#pendingWrite
    this.#pendingWrite = undefined
    callback?.(error)
  }

  #pump(): void {
    while (this.#wantRead) {
      const chunk = this.#conn.read()
      if (!chunk) {
        if (!this.#pushedEnd && this.#conn.finReceived) {
          this.#pushedEnd = true
          this.#wantRead = false
          this.push(null)
        }
        return
      }
      this.#wantRead = this.push(chunk)
    }
  }
}

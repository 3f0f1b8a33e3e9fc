// The in-process userspace WireGuard device: handshakes in both roles, transport encryption,
// keypair rotation, the timer state machine of whitepaper section 6 (after wireguard-go's
// timers.go), cookies under load and endpoint roaming. The netstack above it hands in inner IP
// packets with sendIp() and receives decrypted ones through onIp().
import { lookup as dnsLookup } from 'node:dns/promises'
import { randomBytes } from 'node:crypto'
import {
  wgDefaultMtu,
  wgHandshakeInitiationMinIntervalMs,
  wgKeepaliveTimeoutMs,
  wgMaxHandshakeAttempts,
  wgPaddingMultipleBytes,
  wgRejectAfterMessages,
  wgRejectAfterTimeMs,
  wgRekeyAfterMessages,
  wgRekeyAfterTimeMs,
  wgRekeyTimeoutJitterMaxMs,
  wgRekeyTimeoutMs,
  wgStagedPacketsMax,
  wgUnderLoadAfterMs,
  wgUnderLoadHandshakesPerSecond,
  wgIndexAllocationAttempts,
  wgReplayWindowPackets,
} from '../../config/defaults.js'
import { InternalError, WireGuardHandshakeTimeoutError, WireGuardSocketError, type AgentError } from '../../errors.js'
import type { Logger } from '../../log.js'
import { AllowedIps, innerPacketInfo } from './allowed-ips.js'
import type { WgClock, TimerHandle } from './clock.js'
import { encodeKey, parseIp, parseWgConfig, type WgConfig } from './config.js'
import { importPrivateKey, TransportCipher, type StaticKey } from './crypto.js'
import {
  COOKIE_REPLY_BYTES,
  CookieChecker,
  CookieGenerator,
  INITIATION_BYTES,
  MESSAGE_COOKIE_REPLY,
  MESSAGE_INITIATION,
  MESSAGE_RESPONSE,
  MESSAGE_TRANSPORT,
  messageType,
  readCounter,
  readU32,
  RESPONSE_BYTES,
  sourceBytes,
  TRANSPORT_HEADER_BYTES,
  TRANSPORT_MIN_BYTES,
  writeCounter,
  writeU32,
} from './messages.js'
import { readInitiation, readResponse, split, wireGuardNoise, writeInitiation, writeResponse, type SymmetricState } from './noise.js'
import { ReplayWindow } from './replay.js'
import { compareTai64n, nextTai64n, tai64n, TAI64N_BYTES } from './tai64n.js'
import type { UdpAddress, WgUdpSocket } from './udp.js'

// ---- public types ------------------------------------------------------------------------------

export interface WireGuardDeviceOptions {
  /** Parsed config, or wg-quick text (parsed here; WireGuardConfigError on a bad line). */
  config: WgConfig | string
  udp: WgUdpSocket
  clock: WgClock
  logger: Logger
  /** Cryptographically secure random bytes; injectable for deterministic tests. */
  random?: (n: number) => Uint8Array
  /** Resolves an endpoint host name to an IPv4 address (default: node:dns lookup). */
  resolve?: (host: string) => Promise<string>
  /** Address the UDP socket binds to (default: all interfaces). */
  bindAddress?: string
  /** Handshake messages per second above which the device is "under load" and demands cookies. */
  underLoadHandshakesPerSecond?: number
  /** Protocol limits and timeouts (defaults.ts); tests shrink them. */
  limits?: Partial<WireGuardLimits>
}

export interface WireGuardLimits {
  rekeyAfterMessages: number
  rejectAfterMessages: number
  rekeyAfterTimeMs: number
  rejectAfterTimeMs: number
  rekeyTimeoutMs: number
  rekeyTimeoutJitterMaxMs: number
  keepaliveTimeoutMs: number
  maxHandshakeAttempts: number
  handshakeInitiationMinIntervalMs: number
  stagedPacketsMax: number
  underLoadAfterMs: number
}

export const defaultWireGuardLimits: Readonly<WireGuardLimits> = {
  rekeyAfterMessages: wgRekeyAfterMessages,
  rejectAfterMessages: wgRejectAfterMessages,
  rekeyAfterTimeMs: wgRekeyAfterTimeMs,
  rejectAfterTimeMs: wgRejectAfterTimeMs,
  rekeyTimeoutMs: wgRekeyTimeoutMs,
  rekeyTimeoutJitterMaxMs: wgRekeyTimeoutJitterMaxMs,
  keepaliveTimeoutMs: wgKeepaliveTimeoutMs,
  maxHandshakeAttempts: wgMaxHandshakeAttempts,
  handshakeInitiationMinIntervalMs: wgHandshakeInitiationMinIntervalMs,
  stagedPacketsMax: wgStagedPacketsMax,
  underLoadAfterMs: wgUnderLoadAfterMs,
}

export type WireGuardEvent =
  | { type: 'handshake-complete'; peer: string; role: 'initiator' | 'responder'; endpoint: UdpAddress | undefined }
  | { type: 'handshake-initiated'; peer: string; attempt: number }
  | { type: 'handshake-timeout'; peer: string; error: AgentError }
  | { type: 'keys-zeroed'; peer: string }
  | { type: 'endpoint-changed'; peer: string; endpoint: UdpAddress }
  | { type: 'cookie-received'; peer: string }

export interface WireGuardPeerStats {
  publicKey: string
  endpoint: UdpAddress | undefined
  lastHandshakeAt: number | undefined
  handshakeAttempts: number
  hasSession: boolean
  txBytes: number
  rxBytes: number
  txPackets: number
  rxPackets: number
}

export interface WireGuardStats {
  listenPort: number | undefined
  underLoad: boolean
  peers: WireGuardPeerStats[]
  dropped: Record<DropReason, number>
  /** Exceptions caught by the receive-path safety net; always 0 unless there is a bug. */
  internalErrors: number
  /** The last local send failure (`EPERM: ...`) since the last completed handshake; undefined when none. */
  lastSendError: string | undefined
}

export type DropReason =
  | 'malformed' | 'mac1' | 'cookieRequired' | 'handshakeInvalid' | 'unknownPeer' | 'replayedInitiation'
  | 'initiationFlood' | 'unknownIndex' | 'expiredKey' | 'decrypt' | 'replay' | 'badInnerPacket'
  | 'sourceNotAllowed' | 'noRoute' | 'noEndpoint' | 'stagedOverflow' | 'handshakeTimeout'
  /** The socket refused a datagram here (EPERM from a host firewall, ENETUNREACH): counted as lost on the way. */
  | 'sendFailed'

export interface WireGuardDevice {
  start(): Promise<void>
  close(): Promise<void>
  /** Encrypts an inner IP packet to the peer whose AllowedIPs contain its destination. */
  sendIp(packet: Uint8Array): void
  /** Decrypted inner packets whose source address is in the sending peer's AllowedIPs. */
  onIp(handler: (packet: Uint8Array) => void): void
  onEvent(handler: (event: WireGuardEvent) => void): void
  stats(): WireGuardStats
  /** The device's static public key (base64). */
  readonly publicKey: string
  /** Largest inner IP packet: the config's MTU (default 1420). */
  readonly mtu: number
  /** Forces the "under load" state (cookies demanded) on or off; undefined = automatic. */
  setUnderLoad(forced: boolean | undefined): void
}

// ---- internals ----------------------------------------------------------------------------------

interface Keypair {
  readonly send: TransportCipher
  readonly recv: TransportCipher
  sendNonce: number
  readonly replay: ReplayWindow
  readonly created: number
  readonly isInitiator: boolean
  readonly localIndex: number
  readonly remoteIndex: number
}

type Handshake =
  | { state: 'none' }
  | { state: 'initiation-sent'; localIndex: number; ephemeral: StaticKey; symmetric: SymmetricState }

/**
 * A re-armable timer (wireguard-go's mod_timer/del_timer). The data path re-arms some timers on
 * every packet, so the underlying clock timer is lazy: moving the deadline later keeps the armed
 * clock timer, which re-arms itself for the remainder when it fires early; del() only disarms.
 * Clock timers are created only when the deadline moves earlier than the one already armed.
 */
class Timer {
  private handle: TimerHandle = undefined
  /** When the armed clock timer fires (undefined: none armed). */
  private firesAt: number | undefined
  private deadline = 0
  private armed = false
  constructor(private readonly clock: WgClock, private readonly fire: () => void) {}
  get pending(): boolean {
    return this.armed
  }
  mod(delayMs: number): void {
    const now = this.clock.now()
    this.deadline = now + Math.max(0, delayMs)
    this.armed = true
    if (this.firesAt !== undefined && this.firesAt <= this.deadline) return
    this.arm(this.deadline - now)
  }
  del(): void {
    this.armed = false
  }
  /** Also cancels the clock timer (device close: nothing may stay scheduled). */
  stop(): void {
    this.armed = false
    if (this.firesAt !== undefined) this.clock.clearTimeout(this.handle)
    this.firesAt = undefined
  }
  private arm(delayMs: number): void {
    if (this.firesAt !== undefined) this.clock.clearTimeout(this.handle)
    this.firesAt = this.clock.now() + delayMs
    this.handle = this.clock.setTimeout(() => {
      this.firesAt = undefined
      if (!this.armed) return
      const left = this.deadline - this.clock.now()
      if (left > 0) {
        this.arm(left)
        return
      }
      this.armed = false
      this.fire()
    }, delayMs)
  }
}

interface IndexEntry {
  peer: Peer
  keypair: Keypair | undefined
}

class Peer {
  readonly id: string
  endpoint: UdpAddress | undefined
  readonly psk: Uint8Array
  readonly persistentKeepaliveMs: number
  readonly cookies: CookieGenerator
  handshake: Handshake = { state: 'none' }
  lastReceivedTimestamp: Uint8Array | undefined
  lastSentTimestamp: Uint8Array | undefined
  lastInitiationConsumedAt = Number.NEGATIVE_INFINITY
  lastSentHandshakeAt = Number.NEGATIVE_INFINITY
  previous: Keypair | undefined
  current: Keypair | undefined
  next: Keypair | undefined
  handshakeAttempts = 0
  needAnotherKeepalive = false
  sentLastMinuteHandshake = false
  lastHandshakeAt: number | undefined
  staged: Uint8Array[] = []
  txBytes = 0
  rxBytes = 0
  txPackets = 0
  rxPackets = 0
  readonly retransmitHandshake: Timer
  readonly sendKeepalive: Timer
  readonly newHandshake: Timer
  readonly zeroKeyMaterial: Timer
  readonly persistentKeepalive: Timer

  constructor(
    readonly publicKey: Uint8Array,
    psk: Uint8Array | undefined,
    persistentKeepaliveSeconds: number,
    clock: WgClock,
    handlers: { retransmit(p: Peer): void; keepalive(p: Peer): void; newHandshake(p: Peer): void; zero(p: Peer): void; persistent(p: Peer): void },
  ) {
    this.id = encodeKey(publicKey)
    this.psk = psk ?? new Uint8Array(32)
    this.persistentKeepaliveMs = persistentKeepaliveSeconds * 1000
    this.cookies = new CookieGenerator(publicKey, () => clock.now())
    this.retransmitHandshake = new Timer(clock, () => handlers.retransmit(this))
    this.sendKeepalive = new Timer(clock, () => handlers.keepalive(this))
    this.newHandshake = new Timer(clock, () => handlers.newHandshake(this))
    this.zeroKeyMaterial = new Timer(clock, () => handlers.zero(this))
    this.persistentKeepalive = new Timer(clock, () => handlers.persistent(this))
  }

  stopTimers(): void {
    this.retransmitHandshake.stop()
    this.sendKeepalive.stop()
    this.newHandshake.stop()
    this.zeroKeyMaterial.stop()
    this.persistentKeepalive.stop()
  }
}

const EMPTY = new Uint8Array(0)

export function createWireGuardDevice(options: WireGuardDeviceOptions): WireGuardDevice {
  const config = typeof options.config === 'string' ? parseWgConfig(options.config) : options.config
  const { udp, clock, logger } = options
  const wallNow = (): number => clock.wallNow?.() ?? Date.now()
  const L: WireGuardLimits = { ...defaultWireGuardLimits, ...options.limits }
  const random = options.random ?? ((n: number) => new Uint8Array(randomBytes(n)))
  const resolve = options.resolve ?? (async (host: string) => (await dnsLookup(host, { family: 4 })).address)
  const underLoadThreshold = options.underLoadHandshakesPerSecond ?? wgUnderLoadHandshakesPerSecond
  const mtu = config.mtu ?? wgDefaultMtu
  const local = importPrivateKey(config.privateKey)
  const publicKey = encodeKey(local.publicKey)
  const checker = new CookieChecker(local.publicKey, random, () => clock.now())

  const peers = new Map<string, Peer>()
  const routes = new AllowedIps<Peer>()
  const sources = new Map<Peer, AllowedIps<true>>()
  const indices = new Map<number, IndexEntry>()
  let ipHandler: ((packet: Uint8Array) => void) | undefined
  let eventHandler: ((event: WireGuardEvent) => void) | undefined
  let started = false
  let closed = false
  let listenPort: number | undefined
  let forcedUnderLoad: boolean | undefined
  let handshakeWindowStart = Number.NEGATIVE_INFINITY
  let handshakesInWindow = 0
  let underLoadUntil = Number.NEGATIVE_INFINITY
  let internalErrors = 0
  const dropped: Record<DropReason, number> = {
    malformed: 0, mac1: 0, cookieRequired: 0, handshakeInvalid: 0, unknownPeer: 0, replayedInitiation: 0,
    initiationFlood: 0, unknownIndex: 0, expiredKey: 0, decrypt: 0, replay: 0, badInnerPacket: 0,
    sourceNotAllowed: 0, noRoute: 0, noEndpoint: 0, stagedOverflow: 0, handshakeTimeout: 0, sendFailed: 0,
  }
  let lastSendError: string | undefined

  const emit = (event: WireGuardEvent): void => {
    try {
      eventHandler?.(event)
    } catch (err) {
      logger.warn({ err }, 'wireguard event handler threw')
    }
  }

  // ---- indices and keypairs -------------------------------------------------------------------

  /** A fresh random 32-bit index; undefined (logged) only if `random` is broken. */
  function allocateIndex(entry: IndexEntry): number | undefined {
    for (let i = 0; i < wgIndexAllocationAttempts; i++) {
      const bytes = random(4)
      const index = readU32(bytes, 0)
      if (!indices.has(index)) {
        indices.set(index, entry)
        return index
      }
    }
    logger.error({ err: new InternalError('could not allocate a free WireGuard index') }, 'wireguard index table exhausted')
    return undefined
  }

  function dropKeypair(keypair: Keypair | undefined): void {
    if (keypair === undefined) return
    const entry = indices.get(keypair.localIndex)
    if (entry?.keypair === keypair) indices.delete(keypair.localIndex)
  }

  function clearHandshake(peer: Peer): void {
    if (peer.handshake.state === 'initiation-sent') {
      const entry = indices.get(peer.handshake.localIndex)
      if (entry !== undefined && entry.keypair === undefined) indices.delete(peer.handshake.localIndex)
      peer.handshake.symmetric.ck.fill(0)
    }
    peer.handshake = { state: 'none' }
  }

  function usable(keypair: Keypair | undefined): keypair is Keypair {
    return keypair !== undefined && clock.now() - keypair.created < L.rejectAfterTimeMs && keypair.sendNonce < L.rejectAfterMessages
  }

  function makeKeypair(peer: Peer, ck: Uint8Array, isInitiator: boolean, localIndex: number, remoteIndex: number): Keypair {
    const [k1, k2] = split(ck)
    const keypair: Keypair = {
      send: new TransportCipher(isInitiator ? k1 : k2),
      recv: new TransportCipher(isInitiator ? k2 : k1),
      sendNonce: 0,
      replay: new ReplayWindow(wgReplayWindowPackets, L.rejectAfterMessages),
      created: clock.now(),
      isInitiator,
      localIndex,
      remoteIndex,
    }
    k1.fill(0)
    k2.fill(0)
    ck.fill(0)
    indices.set(localIndex, { peer, keypair })
    if (isInitiator) {
      if (peer.next !== undefined) {
        dropKeypair(peer.previous)
        peer.previous = peer.next
        peer.next = undefined
        dropKeypair(peer.current)
      } else {
        dropKeypair(peer.previous)
        peer.previous = peer.current
      }
      peer.current = keypair
    } else {
      dropKeypair(peer.next)
      peer.next = keypair
      dropKeypair(peer.previous)
      peer.previous = undefined
    }
    return keypair
  }

  /** Data arrived on `keypair`: if it is the unconfirmed next one, it becomes current. */
  function receivedWithKeypair(peer: Peer, keypair: Keypair): boolean {
    if (peer.next !== keypair) return false
    dropKeypair(peer.previous)
    peer.previous = peer.current
    peer.current = keypair
    peer.next = undefined
    return true
  }

  // ---- timers (whitepaper section 6; wireguard-go timers.go) ----------------------------------

  // Jitter is drawn on every data packet sent after one was received: from a pool, not a
  // randomBytes call per packet.
  let jitterPool: Uint8Array = new Uint8Array(0)
  let jitterAt = 0
  const jitter = (): number => {
    if (jitterAt + 2 > jitterPool.length) {
      jitterPool = random(256)
      jitterAt = 0
    }
    const value = (jitterPool[jitterAt]! << 8) | jitterPool[jitterAt + 1]!
    jitterAt += 2
    return value % (L.rekeyTimeoutJitterMaxMs + 1)
  }

  function timersDataSent(peer: Peer): void {
    if (!peer.newHandshake.pending) peer.newHandshake.mod(L.keepaliveTimeoutMs + L.rekeyTimeoutMs + jitter())
  }
  function timersDataReceived(peer: Peer): void {
    if (!peer.sendKeepalive.pending) peer.sendKeepalive.mod(L.keepaliveTimeoutMs)
    else peer.needAnotherKeepalive = true
  }
  function timersAnyAuthenticatedPacketSent(peer: Peer): void {
    peer.sendKeepalive.del()
  }
  function timersAnyAuthenticatedPacketReceived(peer: Peer): void {
    peer.newHandshake.del()
  }
  function timersHandshakeInitiated(peer: Peer): void {
    peer.retransmitHandshake.mod(L.rekeyTimeoutMs + jitter())
  }
  function timersHandshakeComplete(peer: Peer, role: 'initiator' | 'responder'): void {
    peer.retransmitHandshake.del()
    peer.handshakeAttempts = 0
    peer.sentLastMinuteHandshake = false
    peer.lastHandshakeAt = wallNow()
    lastSendError = undefined // datagrams go out again
    emit({ type: 'handshake-complete', peer: peer.id, role, endpoint: peer.endpoint })
  }
  function timersSessionDerived(peer: Peer): void {
    peer.zeroKeyMaterial.mod(L.rejectAfterTimeMs * 3)
  }
  function timersAnyAuthenticatedPacketTraversal(peer: Peer): void {
    if (peer.persistentKeepaliveMs > 0) peer.persistentKeepalive.mod(peer.persistentKeepaliveMs)
  }

  function expiredRetransmitHandshake(peer: Peer): void {
    if (peer.handshakeAttempts >= L.maxHandshakeAttempts) {
      const error = new WireGuardHandshakeTimeoutError(
        `no WireGuard handshake with peer ${peer.id} after ${peer.handshakeAttempts + 1} attempts`,
        { details: { peer: peer.id, endpoint: peer.endpoint } },
      )
      logger.warn({ peer: peer.id, attempts: peer.handshakeAttempts + 1 }, 'wireguard handshake gave up')
      peer.sendKeepalive.del()
      dropped.handshakeTimeout += peer.staged.length
      peer.staged = []
      clearHandshake(peer)
      if (!peer.newHandshake.pending) peer.zeroKeyMaterial.mod(L.rejectAfterTimeMs * 3)
      emit({ type: 'handshake-timeout', peer: peer.id, error })
      return
    }
    peer.handshakeAttempts++
    logger.debug({ peer: peer.id, attempt: peer.handshakeAttempts + 1 }, 'wireguard handshake retransmit')
    sendInitiation(peer, true)
  }
  function expiredSendKeepalive(peer: Peer): void {
    sendKeepalive(peer)
    if (peer.needAnotherKeepalive) {
      peer.needAnotherKeepalive = false
      peer.sendKeepalive.mod(L.keepaliveTimeoutMs)
    }
  }
  function expiredNewHandshake(peer: Peer): void {
    logger.debug({ peer: peer.id }, 'wireguard: no reply to data, new handshake')
    sendInitiation(peer, false)
  }
  function expiredZeroKeyMaterial(peer: Peer): void {
    zeroKeys(peer)
    emit({ type: 'keys-zeroed', peer: peer.id })
  }
  function expiredPersistentKeepalive(peer: Peer): void {
    if (peer.persistentKeepaliveMs > 0) sendKeepalive(peer)
  }

  function zeroKeys(peer: Peer): void {
    dropKeypair(peer.previous)
    dropKeypair(peer.current)
    dropKeypair(peer.next)
    peer.previous = peer.current = peer.next = undefined
    clearHandshake(peer)
  }

  // ---- sending ---------------------------------------------------------------------------------

  /**
   * False only when there is nowhere to send. A datagram the socket refuses here (EPERM from a host
   * firewall, ENETUNREACH) counts as sent and lost on the way: its timers run exactly as for a
   * datagram that got no answer (retransmits, a new handshake 15 s after unanswered data, the
   * give-up after 90 s), so a tunnel blocked on this host shows as down like one blocked anywhere
   * else. Skipping them would leave the tunnel "up" on a stale handshake for minutes.
   */
  function sendRaw(peer: Peer, data: Uint8Array): boolean {
    if (peer.endpoint === undefined) {
      dropped.noEndpoint++
      return false
    }
    try {
      udp.send(data, peer.endpoint.port, peer.endpoint.address)
    } catch (err) {
      sendFailed(err, peer.endpoint)
    }
    return true
  }

  // A socket that reports failures later (node:dgram) cannot say which send failed: the count and
  // the last error are what is known. Logged once per kind of error, not per datagram.
  function sendFailed(err: unknown, to: UdpAddress | undefined): void {
    dropped.sendFailed++
    const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'ERROR'
    const text = `${code}: ${err instanceof Error ? err.message : String(err)}`
    if (lastSendError === undefined || !lastSendError.startsWith(`${code}:`)) {
      logger.warn({ err, endpoint: to }, `wireguard: the socket refused a datagram (${code}); counted as lost, the handshake timers go on`)
    }
    lastSendError = text
  }

  function sendInitiation(peer: Peer, isRetry: boolean): void {
    if (closed) return
    if (!isRetry) peer.handshakeAttempts = 0
    if (clock.now() - peer.lastSentHandshakeAt < L.rekeyTimeoutMs) return
    peer.lastSentHandshakeAt = clock.now()
    clearHandshake(peer)
    let timestamp = tai64n(wallNow())
    if (peer.lastSentTimestamp !== undefined && compareTai64n(timestamp, peer.lastSentTimestamp) <= 0) timestamp = nextTai64n(peer.lastSentTimestamp)
    peer.lastSentTimestamp = timestamp
    const out = writeInitiation(wireGuardNoise, local, peer.publicKey, random(32), timestamp)
    if (out === undefined) {
      logger.warn({ peer: peer.id }, 'wireguard: peer public key gives an unusable shared secret')
      return
    }
    const localIndex = allocateIndex({ peer, keypair: undefined })
    if (localIndex === undefined) return
    peer.handshake = { state: 'initiation-sent', localIndex, ephemeral: out.ephemeral, symmetric: out.state }
    const msg = new Uint8Array(INITIATION_BYTES)
    msg[0] = MESSAGE_INITIATION
    writeU32(msg, 4, localIndex)
    msg.set(out.body, 8)
    peer.cookies.addMacs(msg)
    emit({ type: 'handshake-initiated', peer: peer.id, attempt: peer.handshakeAttempts + 1 })
    timersAnyAuthenticatedPacketTraversal(peer)
    timersAnyAuthenticatedPacketSent(peer)
    timersHandshakeInitiated(peer)
    sendRaw(peer, msg)
  }

  function sendResponse(peer: Peer, remoteIndex: number, remoteEphemeral: Uint8Array, symmetric: SymmetricState): void {
    const out = writeResponse(symmetric, peer.publicKey, remoteEphemeral, random(32), peer.psk, EMPTY)
    if (out === undefined) {
      dropped.handshakeInvalid++
      return
    }
    clearHandshake(peer)
    const localIndex = allocateIndex({ peer, keypair: undefined })
    if (localIndex === undefined) return
    const msg = new Uint8Array(RESPONSE_BYTES)
    msg[0] = MESSAGE_RESPONSE
    writeU32(msg, 4, localIndex)
    writeU32(msg, 8, remoteIndex)
    msg.set(out.body, 12)
    peer.cookies.addMacs(msg)
    makeKeypair(peer, out.state.ck, false, localIndex, remoteIndex)
    timersSessionDerived(peer)
    timersAnyAuthenticatedPacketTraversal(peer)
    timersAnyAuthenticatedPacketSent(peer)
    sendRaw(peer, msg)
  }

  function encryptAndSend(peer: Peer, keypair: Keypair, packet: Uint8Array): void {
    const counter = keypair.sendNonce++
    let padded = packet.length
    if (padded % wgPaddingMultipleBytes !== 0) padded = Math.min(padded + wgPaddingMultipleBytes - (padded % wgPaddingMultipleBytes), Math.max(mtu, packet.length))
    const out = Buffer.allocUnsafe(TRANSPORT_HEADER_BYTES + padded + 16)
    out.writeUInt32LE(MESSAGE_TRANSPORT, 0)
    out.writeUInt32LE(keypair.remoteIndex, 4)
    writeCounter(out, 8, counter)
    keypair.send.seal(counter, packet, out, TRANSPORT_HEADER_BYTES, padded - packet.length)
    if (!sendRaw(peer, out)) return
    peer.txBytes += out.length
    peer.txPackets++
    timersAnyAuthenticatedPacketTraversal(peer)
    timersAnyAuthenticatedPacketSent(peer)
    if (packet.length > 0) timersDataSent(peer)
  }

  function keepKeyFreshSending(peer: Peer): void {
    const keypair = peer.current
    if (keypair === undefined) return
    if (keypair.sendNonce > L.rekeyAfterMessages || (keypair.isInitiator && clock.now() - keypair.created > L.rekeyAfterTimeMs)) {
      sendInitiation(peer, false)
    }
  }

  function keepKeyFreshReceiving(peer: Peer): void {
    if (peer.sentLastMinuteHandshake) return
    const keypair = peer.current
    if (keypair === undefined || !keypair.isInitiator) return
    if (clock.now() - keypair.created > L.rejectAfterTimeMs - L.keepaliveTimeoutMs - L.rekeyTimeoutMs) {
      peer.sentLastMinuteHandshake = true
      sendInitiation(peer, false)
    }
  }

  function sendStaged(peer: Peer): void {
    const keypair = peer.current
    if (!usable(keypair)) {
      sendInitiation(peer, false)
      return
    }
    const staged = peer.staged
    peer.staged = []
    for (let i = 0; i < staged.length; i++) {
      if (!usable(keypair)) {
        // the key hit its message limit part-way: the rest waits for the next session
        peer.staged = staged.slice(i)
        sendInitiation(peer, false)
        return
      }
      encryptAndSend(peer, keypair, staged[i]!)
    }
    keepKeyFreshSending(peer)
  }

  function stage(peer: Peer, packet: Uint8Array): void {
    if (peer.staged.length >= L.stagedPacketsMax) {
      peer.staged.shift()
      dropped.stagedOverflow++
    }
    peer.staged.push(packet)
  }

  function sendKeepalive(peer: Peer): void {
    if (peer.staged.length === 0) stage(peer, EMPTY)
    sendStaged(peer)
  }

  function sendToPeer(peer: Peer, packet: Uint8Array): void {
    const keypair = peer.current
    if (peer.staged.length === 0 && usable(keypair)) {
      encryptAndSend(peer, keypair, packet)
      keepKeyFreshSending(peer)
      return
    }
    stage(peer, new Uint8Array(packet))
    sendStaged(peer)
  }

  // ---- receiving -------------------------------------------------------------------------------

  function underLoad(): boolean {
    if (forcedUnderLoad !== undefined) return forcedUnderLoad
    return clock.now() < underLoadUntil
  }

  function countHandshake(): void {
    const now = clock.now()
    if (now - handshakeWindowStart >= 1000) {
      handshakeWindowStart = now
      handshakesInWindow = 0
    }
    handshakesInWindow++
    if (handshakesInWindow > underLoadThreshold) underLoadUntil = now + L.underLoadAfterMs
  }

  /** MAC1 always; under load also MAC2, answering a missing one with a cookie reply. */
  function admitHandshake(msg: Uint8Array, from: UdpAddress, senderIndex: number): boolean {
    if (!checker.checkMac1(msg)) {
      dropped.mac1++
      return false
    }
    const loaded = underLoad()
    countHandshake()
    if (!loaded) return true
    const source = sourceBytes(from.address, from.port)
    if (checker.checkMac2(msg, source)) return true
    dropped.cookieRequired++
    udp.send(checker.createReply(msg, senderIndex, source), from.port, from.address)
    return false
  }

  function roam(peer: Peer, from: UdpAddress): void {
    const current = peer.endpoint
    if (current !== undefined && current.address === from.address && current.port === from.port) return
    peer.endpoint = { address: from.address, port: from.port }
    emit({ type: 'endpoint-changed', peer: peer.id, endpoint: peer.endpoint })
  }

  function handleInitiation(msg: Uint8Array, from: UdpAddress): void {
    if (msg.length !== INITIATION_BYTES) return void dropped.malformed++
    const senderIndex = readU32(msg, 4)
    if (!admitHandshake(msg, from, senderIndex)) return
    const read = readInitiation(wireGuardNoise, local, msg.subarray(8, 116), TAI64N_BYTES)
    if (read === undefined) return void dropped.handshakeInvalid++
    const peer = peers.get(encodeKey(read.remoteStatic))
    if (peer === undefined) return void dropped.unknownPeer++
    if (peer.lastReceivedTimestamp !== undefined && compareTai64n(read.payload, peer.lastReceivedTimestamp) <= 0) return void dropped.replayedInitiation++
    if (clock.now() - peer.lastInitiationConsumedAt < L.handshakeInitiationMinIntervalMs) return void dropped.initiationFlood++
    peer.lastReceivedTimestamp = read.payload
    peer.lastInitiationConsumedAt = clock.now()
    roam(peer, from)
    timersAnyAuthenticatedPacketTraversal(peer)
    timersAnyAuthenticatedPacketReceived(peer)
    sendResponse(peer, senderIndex, read.remoteEphemeral, read.state)
  }

  function handleResponse(msg: Uint8Array, from: UdpAddress): void {
    if (msg.length !== RESPONSE_BYTES) return void dropped.malformed++
    const senderIndex = readU32(msg, 4)
    if (!admitHandshake(msg, from, senderIndex)) return
    const receiverIndex = readU32(msg, 8)
    const entry = indices.get(receiverIndex)
    if (entry === undefined || entry.keypair !== undefined) return void dropped.unknownIndex++
    const peer = entry.peer
    const hs = peer.handshake
    if (hs.state !== 'initiation-sent' || hs.localIndex !== receiverIndex) return void dropped.unknownIndex++
    const read = readResponse(hs.symmetric, local, hs.ephemeral, peer.psk, msg.subarray(12, 60), 0)
    if (read === undefined) return void dropped.handshakeInvalid++
    peer.handshake = { state: 'none' }
    roam(peer, from)
    timersAnyAuthenticatedPacketTraversal(peer)
    timersAnyAuthenticatedPacketReceived(peer)
    makeKeypair(peer, read.state.ck, true, receiverIndex, senderIndex)
    timersSessionDerived(peer)
    timersHandshakeComplete(peer, 'initiator')
    sendKeepalive(peer) // confirms the session to the responder and flushes staged packets
  }

  function handleCookieReply(msg: Uint8Array): void {
    if (msg.length !== COOKIE_REPLY_BYTES) return void dropped.malformed++
    const entry = indices.get(readU32(msg, 4))
    if (entry === undefined) return void dropped.unknownIndex++
    if (!entry.peer.cookies.consumeReply(msg)) return void dropped.handshakeInvalid++
    emit({ type: 'cookie-received', peer: entry.peer.id })
    // The next retransmission carries MAC2; wireguard-go also waits for the retransmit timer.
  }

  function handleTransport(msg: Uint8Array, from: UdpAddress): void {
    if (msg.length < TRANSPORT_MIN_BYTES) return void dropped.malformed++
    const entry = indices.get(readU32(msg, 4))
    const keypair = entry?.keypair
    if (entry === undefined || keypair === undefined) return void dropped.unknownIndex++
    const peer = entry.peer
    if (clock.now() - keypair.created >= L.rejectAfterTimeMs) return void dropped.expiredKey++
    const counter = readCounter(msg, 8)
    if (!keypair.replay.check(counter)) return void dropped.replay++
    const plain = keypair.recv.open(counter, msg.subarray(TRANSPORT_HEADER_BYTES))
    if (plain === undefined) return void dropped.decrypt++
    if (!keypair.replay.accept(counter)) return void dropped.replay++
    peer.rxBytes += msg.length
    peer.rxPackets++
    roam(peer, from)
    if (receivedWithKeypair(peer, keypair)) {
      timersHandshakeComplete(peer, 'responder')
      sendStaged(peer)
    }
    keepKeyFreshReceiving(peer)
    timersAnyAuthenticatedPacketTraversal(peer)
    timersAnyAuthenticatedPacketReceived(peer)
    if (plain.length === 0) return // keepalive
    timersDataReceived(peer)
    const info = innerPacketInfo(plain)
    if (info === undefined) return void dropped.badInnerPacket++
    const allowed = sources.get(peer)?.lookup(info.family, plain, info.srcOffset)
    if (allowed === undefined) return void dropped.sourceNotAllowed++
    const packet = info.length === plain.length ? plain : plain.subarray(0, info.length)
    try {
      ipHandler?.(packet)
    } catch (err) {
      logger.warn({ err }, 'wireguard onIp handler threw')
    }
  }

  function receive(data: Uint8Array, from: UdpAddress): void {
    if (closed) return
    try {
      switch (messageType(data)) {
        case MESSAGE_INITIATION: return handleInitiation(data, from)
        case MESSAGE_RESPONSE: return handleResponse(data, from)
        case MESSAGE_COOKIE_REPLY: return handleCookieReply(data)
        case MESSAGE_TRANSPORT: return handleTransport(data, from)
        default: dropped.malformed++
      }
    } catch (err) {
      internalErrors++
      logger.error({ err }, 'wireguard receive path failed (bug)')
    }
  }

  // ---- setup -----------------------------------------------------------------------------------

  for (const pc of config.peers) {
    const peer = new Peer(pc.publicKey, pc.presharedKey, pc.persistentKeepalive, clock, {
      retransmit: expiredRetransmitHandshake,
      keepalive: expiredSendKeepalive,
      newHandshake: expiredNewHandshake,
      zero: expiredZeroKeyMaterial,
      persistent: expiredPersistentKeepalive,
    })
    peers.set(peer.id, peer)
    const allowed = new AllowedIps<true>()
    for (const cidr of pc.allowedIps) {
      routes.insert(cidr, peer)
      allowed.insert(cidr, true)
    }
    sources.set(peer, allowed)
  }

  return {
    publicKey,
    mtu,
    async start() {
      if (started) return
      started = true
      udp.onMessage(receive)
      udp.onSendError?.((err, to) => sendFailed(err, to))
      try {
        const bound = await udp.bind(config.listenPort ?? 0, options.bindAddress)
        listenPort = bound.port
      } catch (err) {
        started = false
        throw err instanceof WireGuardSocketError ? err : new WireGuardSocketError(`WireGuard UDP socket could not bind: ${String(err)}`, { cause: err })
      }
      for (const pc of config.peers) {
        if (pc.endpoint === undefined) continue
        const peer = peers.get(encodeKey(pc.publicKey))!
        let address = pc.endpoint.host
        if (parseIp(address) === undefined) {
          try {
            address = await resolve(address)
          } catch (err) {
            throw new WireGuardSocketError(`WireGuard endpoint ${pc.endpoint.host} did not resolve`, { cause: err })
          }
        }
        peer.endpoint ??= { address, port: pc.endpoint.port }
        if (peer.persistentKeepaliveMs > 0) sendKeepalive(peer) // wg: persistent keepalive starts at once
      }
      logger.info({ publicKey, listenPort, peers: peers.size }, 'wireguard device started')
    },
    async close() {
      if (closed) return
      closed = true
      for (const peer of peers.values()) {
        peer.stopTimers()
        zeroKeys(peer)
        peer.staged = []
      }
      indices.clear()
      await udp.close()
    },
    sendIp(packet) {
      if (closed) return
      const info = innerPacketInfo(packet)
      if (info === undefined) return void dropped.badInnerPacket++
      const peer = routes.lookup(info.family, packet, info.dstOffset)
      if (peer === undefined) return void dropped.noRoute++
      sendToPeer(peer, packet)
    },
    onIp(handler) {
      ipHandler = handler
    },
    onEvent(handler) {
      eventHandler = handler
    },
    setUnderLoad(forced) {
      forcedUnderLoad = forced
    },
    stats() {
      return {
        listenPort,
        underLoad: underLoad(),
        internalErrors,
        lastSendError,
        dropped: { ...dropped },
        peers: [...peers.values()].map((p) => ({
          publicKey: p.id,
          endpoint: p.endpoint,
          lastHandshakeAt: p.lastHandshakeAt,
          handshakeAttempts: p.handshakeAttempts,
          hasSession: usable(p.current),
          txBytes: p.txBytes,
          rxBytes: p.rxBytes,
          txPackets: p.txPackets,
          rxPackets: p.rxPackets,
        })),
      }
    },
  }
}

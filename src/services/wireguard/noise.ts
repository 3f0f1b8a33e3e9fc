// The Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s handshake core (whitepaper 5.4.2 - 5.4.5), without
// the WireGuard framing: message bodies in, message bodies out. Parameterised by construction and
// prologue so the cacophony test vectors (prologue "John Galt", non-empty payloads) run through
// exactly the code the device uses.
import { aeadDecrypt, aeadEncrypt, dh, hash, importPrivateKey, kdf, type StaticKey } from './crypto.js'

export const CONSTRUCTION = new TextEncoder().encode('Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s')
export const IDENTIFIER = new TextEncoder().encode('WireGuard v1 zx2c4 Jason@zx2c4.com')

export interface NoiseParams {
  readonly construction: Uint8Array
  readonly prologue: Uint8Array
}

export const wireGuardNoise: NoiseParams = { construction: CONSTRUCTION, prologue: IDENTIFIER }

export interface SymmetricState {
  ck: Uint8Array
  h: Uint8Array
}

const EMPTY = new Uint8Array(0)

/** Ci := HASH(construction); Hi := HASH(HASH(Ci || prologue) || S_pub_responder). */
export function initialState(params: NoiseParams, responderStatic: Uint8Array): SymmetricState {
  const ck = hash(params.construction)
  const h = hash(hash(ck, params.prologue), responderStatic)
  return { ck, h }
}

export interface InitiationOut {
  /** e (32) || AEAD(s) (48) || AEAD(payload) (payload + 16) */
  body: Uint8Array
  ephemeral: StaticKey
  state: SymmetricState
}

/** Initiator, message 1: -> e, es, s, ss, {payload}. */
export function writeInitiation(
  params: NoiseParams,
  local: StaticKey,
  remoteStatic: Uint8Array,
  ephemeralPrivate: Uint8Array,
  payload: Uint8Array,
): InitiationOut | undefined {
  let { ck, h } = initialState(params, remoteStatic)
  const ephemeral = importPrivateKey(ephemeralPrivate)
  const e = ephemeral.publicKey
  ;[ck] = kdf(1, ck, e) as [Uint8Array]
  h = hash(h, e)
  const es = dh(ephemeral.privateKey, remoteStatic)
  if (es === undefined) return undefined
  let key: Uint8Array
  ;[ck, key] = kdf(2, ck, es) as [Uint8Array, Uint8Array]
  const encStatic = aeadEncrypt(key, 0, local.publicKey, h)
  h = hash(h, encStatic)
  const ss = dh(local.privateKey, remoteStatic)
  if (ss === undefined) return undefined
  ;[ck, key] = kdf(2, ck, ss) as [Uint8Array, Uint8Array]
  const encPayload = aeadEncrypt(key, 0, payload, h)
  h = hash(h, encPayload)
  key.fill(0)
  const body = new Uint8Array(32 + encStatic.length + encPayload.length)
  body.set(e, 0)
  body.set(encStatic, 32)
  body.set(encPayload, 32 + encStatic.length)
  return { body, ephemeral, state: { ck, h } }
}

export interface InitiationIn {
  remoteStatic: Uint8Array
  remoteEphemeral: Uint8Array
  payload: Uint8Array
  state: SymmetricState
}

/** Responder, message 1. `payloadLength` is the plaintext length expected (12 for TAI64N). */
export function readInitiation(
  params: NoiseParams,
  local: StaticKey,
  body: Uint8Array,
  payloadLength: number,
): InitiationIn | undefined {
  if (body.length !== 32 + 48 + payloadLength + 16) return undefined
  let { ck, h } = initialState(params, local.publicKey)
  const e = body.slice(0, 32)
  ;[ck] = kdf(1, ck, e) as [Uint8Array]
  h = hash(h, e)
  const es = dh(local.privateKey, e)
  if (es === undefined) return undefined
  let key: Uint8Array
  ;[ck, key] = kdf(2, ck, es) as [Uint8Array, Uint8Array]
  const encStatic = body.subarray(32, 80)
  const remoteStatic = aeadDecrypt(key, 0, encStatic, h)
  if (remoteStatic === undefined) return undefined
  h = hash(h, encStatic)
  const ss = dh(local.privateKey, remoteStatic)
  if (ss === undefined) return undefined
  ;[ck, key] = kdf(2, ck, ss) as [Uint8Array, Uint8Array]
  const encPayload = body.subarray(80)
  const payload = aeadDecrypt(key, 0, encPayload, h)
  key.fill(0)
  if (payload === undefined) return undefined
  h = hash(h, encPayload)
  return { remoteStatic: new Uint8Array(remoteStatic), remoteEphemeral: e, payload: new Uint8Array(payload), state: { ck, h } }
}

export interface ResponseOut {
  /** e (32) || AEAD(payload) (payload + 16) */
  body: Uint8Array
  state: SymmetricState
}

/** Responder, message 2: <- e, ee, se, psk, {payload}. */
export function writeResponse(
  state: SymmetricState,
  remoteStatic: Uint8Array,
  remoteEphemeral: Uint8Array,
  ephemeralPrivate: Uint8Array,
  psk: Uint8Array,
  payload: Uint8Array,
): ResponseOut | undefined {
  let { ck, h } = state
  const ephemeral = importPrivateKey(ephemeralPrivate)
  const e = ephemeral.publicKey
  ;[ck] = kdf(1, ck, e) as [Uint8Array]
  h = hash(h, e)
  const ee = dh(ephemeral.privateKey, remoteEphemeral)
  if (ee === undefined) return undefined
  ;[ck] = kdf(1, ck, ee) as [Uint8Array]
  const se = dh(ephemeral.privateKey, remoteStatic)
  if (se === undefined) return undefined
  ;[ck] = kdf(1, ck, se) as [Uint8Array]
  const [ck2, tau, key] = kdf(3, ck, psk) as [Uint8Array, Uint8Array, Uint8Array]
  ck = ck2
  h = hash(h, tau)
  const encPayload = aeadEncrypt(key, 0, payload, h)
  h = hash(h, encPayload)
  key.fill(0)
  tau.fill(0)
  const body = new Uint8Array(32 + encPayload.length)
  body.set(e, 0)
  body.set(encPayload, 32)
  return { body, state: { ck, h } }
}

/** Initiator, message 2. */
export function readResponse(
  state: SymmetricState,
  local: StaticKey,
  ephemeral: StaticKey,
  psk: Uint8Array,
  body: Uint8Array,
  payloadLength: number,
): { payload: Uint8Array; state: SymmetricState } | undefined {
  if (body.length !== 32 + payloadLength + 16) return undefined
  let { ck, h } = state
  const e = body.subarray(0, 32)
  ;[ck] = kdf(1, ck, e) as [Uint8Array]
  h = hash(h, e)
  const ee = dh(ephemeral.privateKey, e)
  if (ee === undefined) return undefined
  ;[ck] = kdf(1, ck, ee) as [Uint8Array]
  const se = dh(local.privateKey, e)
  if (se === undefined) return undefined
  ;[ck] = kdf(1, ck, se) as [Uint8Array]
  const [ck2, tau, key] = kdf(3, ck, psk) as [Uint8Array, Uint8Array, Uint8Array]
  ck = ck2
  h = hash(h, tau)
  const encPayload = body.subarray(32)
  const payload = aeadDecrypt(key, 0, encPayload, h)
  key.fill(0)
  tau.fill(0)
  if (payload === undefined) return undefined
  h = hash(h, encPayload)
  return { payload: new Uint8Array(payload), state: { ck, h } }
}

/** (T_send_i, T_recv_i) = KDF2(C, empty): [initiator-to-responder key, responder-to-initiator key]. */
export function split(ck: Uint8Array): [Uint8Array, Uint8Array] {
  return kdf(2, ck, EMPTY) as [Uint8Array, Uint8Array]
}

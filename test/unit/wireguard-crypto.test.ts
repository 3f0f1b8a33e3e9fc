import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TransportCipher, hash, importPrivateKey, kdf, mac } from '../../src/services/wireguard/crypto.js'
import { CONSTRUCTION, IDENTIFIER, initialState, readInitiation, readResponse, split, writeInitiation, writeResponse } from '../../src/services/wireguard/noise.js'

interface Vectors {
  kdf: { key: string; input: string; t0: string; t1: string; t2: string }[]
  noise: {
    init_prologue: string; init_psk: string; init_static: string; init_ephemeral: string; init_remote_static: string
    resp_static: string; resp_ephemeral: string; messages: { payload: string; ciphertext: string }[]
  }
}
const vectors = JSON.parse(readFileSync(new URL('../fixtures/wireguard/vectors.json', import.meta.url), 'utf8')) as Vectors
const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'))
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

describe('WireGuard key derivation', () => {
  it.each(vectors.kdf)('KDF1/2/3 match the wireguard-go vectors (key $key)', (v) => {
    const out3 = kdf(3, hex(v.key), hex(v.input)).map(toHex)
    expect(out3).toEqual([v.t0, v.t1, v.t2])
    expect(kdf(2, hex(v.key), hex(v.input)).map(toHex)).toEqual([v.t0, v.t1])
    expect(kdf(1, hex(v.key), hex(v.input)).map(toHex)).toEqual([v.t0])
  })

  it('the initial chaining key and hash are the published WireGuard constants', () => {
    // First bytes of CONSTRUCTION_HASH quoted in rustyguard and the kernel sources: 60 e2 6d ae f3 27 ef c0 2e c3 35 e2 a0 25
    const ck = hash(CONSTRUCTION)
    expect(toHex(ck).slice(0, 28)).toBe('60e26daef327efc02ec335e2a025')
    expect(hash(ck, IDENTIFIER)).toHaveLength(32)
  })

  it('keyed BLAKE2s-128 gives 16 bytes that depend on the key', () => {
    const a = mac(new Uint8Array(32).fill(1), new Uint8Array([1, 2, 3]))
    const b = mac(new Uint8Array(32).fill(2), new Uint8Array([1, 2, 3]))
    expect(a).toHaveLength(16)
    expect(toHex(a)).not.toBe(toHex(b))
  })
})

describe('Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s (cacophony vector)', () => {
  const v = vectors.noise
  const params = { construction: CONSTRUCTION, prologue: hex(v.init_prologue) }
  const initiator = importPrivateKey(hex(v.init_static))
  const responder = importPrivateKey(hex(v.resp_static))
  const psk = hex(v.init_psk)

  it('reproduces every handshake and transport message byte for byte, in both roles', () => {
    expect(toHex(responder.publicKey)).toBe(v.init_remote_static)
    const [m1, m2, ...transport] = v.messages
    const init = writeInitiation(params, initiator, responder.publicKey, hex(v.init_ephemeral), hex(m1!.payload))!
    expect(toHex(init.body)).toBe(m1!.ciphertext)

    const read1 = readInitiation(params, responder, init.body, hex(m1!.payload).length)!
    expect(toHex(read1.payload)).toBe(m1!.payload)
    expect(toHex(read1.remoteStatic)).toBe(toHex(initiator.publicKey))

    const resp = writeResponse(read1.state, read1.remoteStatic, read1.remoteEphemeral, hex(v.resp_ephemeral), psk, hex(m2!.payload))!
    expect(toHex(resp.body)).toBe(m2!.ciphertext)
    const read2 = readResponse(init.state, initiator, init.ephemeral, psk, resp.body, hex(m2!.payload).length)!
    expect(toHex(read2.payload)).toBe(m2!.payload)
    expect(toHex(read2.state.h)).toBe(toHex(resp.state.h))

    const [iSend, iRecv] = split(read2.state.ck)
    const [rRecv, rSend] = split(resp.state.ck)
    expect(toHex(iSend)).toBe(toHex(rRecv))
    expect(toHex(iRecv)).toBe(toHex(rSend))
    const toResponder = new TransportCipher(iSend)
    const toInitiator = new TransportCipher(rSend)
    transport.forEach((m, i) => {
      const cipher = i % 2 === 0 ? toResponder : toInitiator
      const counter = Math.floor(i / 2)
      const out = Buffer.alloc(hex(m.payload).length + 16)
      cipher.seal(counter, hex(m.payload), out, 0)
      expect(toHex(out)).toBe(m.ciphertext)
      expect(toHex(cipher.open(counter, out)!)).toBe(m.payload)
    })
  })

  it('a wrong pre-shared key fails at the response', () => {
    const init = writeInitiation(params, initiator, responder.publicKey, hex(v.init_ephemeral), new Uint8Array(12))!
    const read1 = readInitiation(params, responder, init.body, 12)!
    const resp = writeResponse(read1.state, read1.remoteStatic, read1.remoteEphemeral, hex(v.resp_ephemeral), psk, new Uint8Array(0))!
    expect(readResponse(init.state, initiator, init.ephemeral, new Uint8Array(32), resp.body, 0)).toBeUndefined()
    expect(initialState(params, responder.publicKey).h).toHaveLength(32)
  })
})

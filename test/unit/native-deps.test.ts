import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

// npm 11 skips install scripts that package.json does not allow (we deny them all, see
// "allowScripts"): these checks prove nothing we ship depends on a script that did not run.
const require = createRequire(import.meta.url)

describe('native dependencies without install scripts', () => {
  it('utp-native loads its prebuilt binding, so uTP peers work', () => {
    const utp = require('utp-native') as (...args: unknown[]) => { close(): void }
    const socket = utp()
    expect(typeof socket.close).toBe('function')
    socket.close()
  })

  it('webtorrent loads and a client starts without WebRTC', async () => {
    const { default: WebTorrent } = (await import('webtorrent' as string)) as { default: new (options: unknown) => { destroy(cb: (error: unknown) => void): void } }
    const client = new WebTorrent({ dht: false, lsd: false, tracker: false, natUpnp: false, natPmp: false } )
    await new Promise<void>((resolve, reject) => client.destroy((error: unknown) => (error ? reject(error) : resolve())))
  })

  it('the WebRTC stand-in throws a clear error instead of loading node-datachannel', async () => {
    const webrtc = (await import('webrtc-polyfill' as string)) as { RTCPeerConnection: new () => unknown }
    expect(() => new webrtc.RTCPeerConnection()).toThrow('WebRTC is not supported')
  })
})

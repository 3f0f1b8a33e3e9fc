import { describe, expect, it } from 'vitest'
import { infoHashHashOf, installWakeHook } from '../../src/services/torrent/dormancy.js'

// The hook on our webtorrent client's two incoming-peer lookups (docs/torrents.md, Dormant
// torrents, Waking): the engine's own live torrents are answered without webtorrent's lookups
// (which parse the id and scan every torrent), dormant ones are woken, anything else is refused.

const live = 'a'.repeat(40)
const dormant = 'b'.repeat(40)
const liveTorrent = { name: 'live' }
const wokenTorrent = { name: 'woken' }

function hookedClient() {
  const calls: string[] = []
  const client = {
    get: async (id: unknown) => {
      calls.push(`get ${String(id)}`)
      return null
    },
    _getByHash: async (hash: string) => {
      calls.push(`getByHash ${hash}`)
      return null
    },
  }
  const byHash = new Map([[infoHashHashOf(live), live], [infoHashHashOf(dormant), dormant]])
  const unsupported = installWakeHook<object>(client, {
    live: (infoHash) => (infoHash === live ? liveTorrent : undefined),
    liveByInfoHashHash: (hash) => (byHash.get(hash) === live ? liveTorrent : undefined),
    byInfoHash: (infoHash) => (infoHash === dormant ? Promise.resolve(wokenTorrent) : null),
    byInfoHashHash: (hash) => (byHash.get(hash) === dormant ? Promise.resolve(wokenTorrent) : null),
  })
  expect(unsupported).toBeUndefined()
  return { client, calls }
}

describe('the incoming-peer lookups of the engine\'s client', () => {
  it('answers a live torrent from the engine without webtorrent\'s scan, plain or encrypted, in either case of hex', async () => {
    const { client, calls } = hookedClient()
    expect(await client.get(live.toUpperCase())).toBe(liveTorrent)
    expect(await client._getByHash(infoHashHashOf(live))).toBe(liveTorrent)
    expect(calls).toEqual([])
  })

  it('wakes a dormant torrent without webtorrent\'s scan, and leaves anything else to webtorrent, refusing what it does not hold', async () => {
    const { client, calls } = hookedClient()
    expect(await client.get(dormant)).toBe(wokenTorrent)
    expect(await client._getByHash(infoHashHashOf(dormant))).toBe(wokenTorrent)
    expect(await client.get('c'.repeat(40))).toBeNull()
    expect(await client.get('magnet:?xt=urn:btih:' + live)).toBeNull()
    expect(await client._getByHash('d'.repeat(40))).toBeNull()
    expect(calls).toEqual([`get ${'c'.repeat(40)}`, `get magnet:?xt=urn:btih:${live}`, `getByHash ${'d'.repeat(40)}`])
  })
})

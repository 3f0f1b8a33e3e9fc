import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../../src/log.js'
import { parkUtpListenerWhileIdle } from '../../src/services/torrent/utp-listener.js'

// The uTP listener's open/close ordering, with a stand-in for webtorrent 3's client and conn-pool
// (the same fields and events: `torrents`, `listening`, `_connPool.utpServer`, `add` / `remove` /
// `listening` / `close`) and for utp-native's socket (`listen`, a `close` whose callback comes when
// the socket is really closed). The real sockets are in test/integration/torrent-dormant.test.ts.

class FakeUtpSocket extends EventEmitter {
  listenedOn: number | undefined
  closing: (() => void) | undefined
  closed = false
  constructor(private readonly log: string[], readonly name: string) { super() }
  listen(port: number) { this.listenedOn = port; this.log.push(`${this.name} listen ${port}`) }
  close(onclose?: () => void) { this.log.push(`${this.name} close`); this.closing = () => { this.closed = true; this.log.push(`${this.name} closed`); onclose?.() } }
  setSendBufferSize(bytes: number) { return bytes }
  setRecvBufferSize(bytes: number) { return bytes }
}

function fakeClient(log: string[]) {
  const onConnection = () => {}
  const first = new FakeUtpSocket(log, 'utp0')
  first.on('connection', onConnection)
  const client = Object.assign(new EventEmitter(), {
    torrents: [] as unknown[],
    listening: true,
    _connPool: { utpServer: first as FakeUtpSocket | null, tcpServer: { address: () => ({ port: 51413 }) }, _client: {}, _onUTPConnectionBound: onConnection },
  })
  return { client, first, onConnection }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('the uTP listener while no torrent is live', () => {
  it('closes when the last torrent leaves and opens on the same port, with the pool\'s handler, only once the old socket has closed', async () => {
    const log: string[] = []
    const { client, first, onConnection } = fakeClient(log)
    let made = 0
    expect(parkUtpListenerWhileIdle(client, { log: silentLogger(), createServer: () => new FakeUtpSocket(log, `utp${++made}`) as never })).toBeUndefined()

    client.torrents.push('t1')
    client.emit('add', 't1')
    client.torrents.pop()
    client.emit('remove', 't1')
    await settle()
    expect(client._connPool.utpServer).toBeNull()
    expect(log).toEqual(['utp0 close'])

    // A torrent wakes before the old socket has closed: the port is bound again only after it.
    client.torrents.push('t2')
    client.emit('add', 't2')
    await settle()
    expect(log).toEqual(['utp0 close'])
    first.closing!()
    await settle()
    await settle()
    expect(log).toEqual(['utp0 close', 'utp0 closed', 'utp1 listen 51413'])
    const reopened = client._connPool.utpServer as unknown as FakeUtpSocket
    expect(reopened.name).toBe('utp1')
    expect(reopened.listeners('connection')).toEqual([onConnection])
  })

  it('decides only once the client listens, and leaves a client without uTP alone', async () => {
    const log: string[] = []
    const { client } = fakeClient(log)
    client.listening = false
    parkUtpListenerWhileIdle(client, { log: silentLogger(), createServer: () => new FakeUtpSocket(log, 'new') as never })
    client.emit('remove', 'x')
    await settle()
    expect(log).toEqual([])
    client.listening = true
    client.emit('listening')
    await settle()
    expect(log).toEqual(['utp0 close'])

    const noUtp = fakeClient(log).client
    noUtp._connPool.utpServer = null
    log.length = 0
    parkUtpListenerWhileIdle(noUtp, { log: silentLogger(), createServer: () => new FakeUtpSocket(log, 'new') as never })
    noUtp.torrents.push('t')
    noUtp.emit('add', 't')
    await settle()
    expect(log).toEqual([])
    expect(noUtp._connPool.utpServer).toBeNull()
  })

  it('says why it did nothing when webtorrent is not shaped as expected', () => {
    expect(parkUtpListenerWhileIdle(new EventEmitter() as never, { log: silentLogger() })).toMatch(/webtorrent changed/)
  })
})

import { describe, expect, it } from 'vitest'
import { and, createMachine, fromPromise, not, setup } from 'xstate'
import { machines } from '../../src/machines/index.js'
import { listTransitions, renderStatecharts, toMermaid, transitionLabel } from '../../src/system/statecharts.js'

const lines = (text: string) => text.split('\n').map((line) => line.trim())

function player() {
  return setup({
    actors: { probe: fromPromise(async () => 'ok') },
    guards: { hasCache: () => true, isLive: () => false },
    delays: { liveness: 5_000 },
    actions: { logEntry: () => {}, logExit: () => {} },
  }).createMachine({
    id: 'player',
    description: 'Plays one thing',
    initial: 'idle',
    states: {
      idle: {
        on: {
          play: [{ target: 'probing', guard: 'hasCache' }, { target: 'playing' }],
          ping: {},
          restart: { target: 'idle', reenter: true },
          'xstate.error.actor.*': { target: 'failed' },
        },
      },
      probing: {
        entry: 'logEntry',
        exit: { type: 'logExit' },
        invoke: { id: 'probe', src: 'probe', onDone: 'playing', onError: { target: 'failed', guard: and(['isLive', not('hasCache')]) } },
        after: { liveness: 'failed', 250: { target: 'idle', guard: 'isLive' } },
      },
      playing: {
        initial: 'buffering',
        on: { stop: 'done', pause: {} },
        states: {
          buffering: { always: { target: 'running', guard: 'hasCache' }, on: { 'buffer.full': 'running' } },
          running: { on: { 'buffer.empty': 'buffering', 'tick': {} } },
        },
      },
      failed: { on: { retry: 'idle' } },
      done: { type: 'final' },
    },
  })
}

describe('toMermaid', () => {
  it('starts a stateDiagram-v2 with the initial state and ends final states in [*]', () => {
    const text = toMermaid(player())
    expect(text.startsWith('stateDiagram-v2\n')).toBe(true)
    expect(text.endsWith('\n')).toBe(true)
    expect(lines(text)).toContain('[*] --> idle')
    expect(lines(text)).toContain('done --> [*]')
  })

  it('nests a compound state as a block with its own initial arrow and full-path ids', () => {
    const text = toMermaid(player())
    const body = lines(text)
    const open = body.indexOf('state "playing" as playing {')
    const close = body.indexOf('}', open)
    expect(open).toBeGreaterThan(0)
    const inside = body.slice(open + 1, close)
    expect(inside).toContain('state "buffering" as playing__buffering')
    expect(inside).toContain('state "running" as playing__running')
    expect(inside).toContain('[*] --> playing__buffering')
    expect(body).toContain('playing__running --> playing__buffering : buffer.empty')
  })

  it('writes every arrow between states at the top level, after all declarations', () => {
    // Mermaid re-parents both ends of an arrow into the block it is written in.
    const text = toMermaid(player())
    let depth = 0
    for (const line of text.split('\n')) {
      if (line.trim() === '}') depth--
      if (depth > 0 && line.includes('-->')) expect(line.trim()).toMatch(/^\[\*\] --> |--> \[\*\]$/)
      if (line.trim().endsWith('{')) depth++
    }
  })

  it('separates the regions of a parallel state with --', () => {
    const machine = createMachine({
      id: 'vpn',
      type: 'parallel',
      states: {
        tunnel: { initial: 'down', states: { down: { on: { up: 'up' } }, up: {} } },
        account: { initial: 'free', states: { free: {}, held: {} } },
      },
    })
    const body = lines(toMermaid(machine))
    // A parallel root is drawn as a box so its regions have somewhere to live.
    expect(body).toContain('state "vpn" as vpn {')
    expect(body).toContain('[*] --> vpn')
    const tunnel = body.indexOf('state "tunnel" as tunnel {')
    const account = body.indexOf('state "account" as account {')
    expect(body.slice(tunnel, account)).toContain('--')
    expect(body).toContain('tunnel__down --> tunnel__up : up')
  })

  it('labels guarded transitions with the guard name in brackets, keeping candidates in order', () => {
    const text = toMermaid(player())
    const play = lines(text).filter((line) => line.startsWith('idle --> ') && line.includes(': play'))
    expect(play).toEqual(['idle --> probing : play [hasCache]', 'idle --> playing : play'])
    expect(lines(text)).toContain('probing --> failed : xstate.error.actor.probe [isLive && !hasCache]')
    expect(lines(text)).toContain('playing__buffering --> playing__running : always [hasCache]')
  })

  it('labels delayed transitions with the named delay or the milliseconds', () => {
    const body = lines(toMermaid(player()))
    expect(body).toContain('probing --> failed : after liveness')
    expect(body).toContain('probing --> idle : after 250ms [isLive]')
  })

  it('lists invoked actors and entry/exit actions in the state and draws onDone/onError', () => {
    const body = lines(toMermaid(player()))
    expect(body).toContain('probing : invoke probe')
    expect(body).toContain('probing : entry / logEntry')
    expect(body).toContain('probing : exit / logExit')
    expect(body).toContain('probing --> playing : xstate.done.actor.probe')
  })

  it('keeps wildcard event names such as xstate.error.actor.* in labels', () => {
    expect(lines(toMermaid(player()))).toContain('idle --> failed : xstate.error.actor.*')
  })

  it('lists internal (targetless) transitions inside their state instead of drawing an arrow', () => {
    const text = toMermaid(player())
    expect(lines(text)).toContain('idle : ping (internal)')
    expect(text).not.toMatch(/--> .* : ping/)
    // A composite state may only carry a label in Mermaid: its extras go into a note.
    expect(lines(text)).toContain('playing__running : tick (internal)')
    expect(text).toMatch(/\n {2}note right of playing\n {4}pause \(internal\)\n {2}end note\n/)
  })

  it('draws self-transitions and one arrow per target of a multi-target transition', () => {
    const machine = createMachine({
      id: 'multi',
      initial: 'a',
      states: {
        a: { on: { again: 'a', split: { target: ['#multi.p.left.two', '#multi.p.right.four'] } } },
        p: {
          type: 'parallel',
          states: {
            left: { initial: 'one', states: { one: {}, two: {} } },
            right: { initial: 'three', states: { three: {}, four: {} } },
          },
        },
      },
    })
    const body = lines(toMermaid(machine))
    expect(body).toContain('a --> a : again')
    expect(body).toContain('a --> p__left__two : split')
    expect(body).toContain('a --> p__right__four : split')
  })

  it('sanitises identifiers while labels keep the real names', () => {
    const machine = createMachine({
      id: 'odd',
      initial: 'with.dot',
      states: {
        'with.dot': { on: { 'task:progress': 'with-dash', 'a;b#c': 'end' } },
        'with-dash': { on: { 'x.y': 'with_dash' } },
        with_dash: {},
        end: {},
        default: {},
      },
    })
    const text = toMermaid(machine)
    const body = lines(text)
    expect(body).toContain('state "with.dot" as with_dot')
    expect(body).toContain('state "with-dash" as with_dash')
    // Same sanitised id: the later state gets a suffix instead of being merged.
    expect(body).toContain('state "with_dash" as with_dash_2')
    // Lexer keywords never become ids.
    expect(body).toContain('state "end" as s_end')
    expect(body).toContain('state "default" as s_default')
    // `:`, `;` and `#` would end or comment out a Mermaid label: entity codes render them.
    expect(body).toContain('with_dot --> with_dash : task#58;progress')
    expect(body).toContain('with_dot --> s_end : a#59;b#35;c')
    for (const line of body) {
      const declared = /^state "[^"]*" as (\S+)/.exec(line)
      if (declared) expect(declared[1]).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/)
    }
  })

  it('gives byte-identical text for the same definition, built twice', () => {
    expect(toMermaid(player())).toBe(toMermaid(player()))
    const first = renderStatecharts({ player: player(), agent: machines.agent! })
    const second = renderStatecharts({ agent: machines.agent!, player: player() })
    expect([...second]).toEqual([...first])
  })
})

describe('listTransitions', () => {
  it('names every transition of the definition with its kind, in document order', () => {
    const rows = listTransitions(player()).map((row) => `${row.source.id} ${row.kind} ${transitionLabel(row)} -> ${row.targets.map((t) => t.id).join(',') || '-'}`)
    expect(rows).toContain('player.idle event play [hasCache] -> player.probing')
    expect(rows).toContain('player.idle event ping -> -')
    expect(rows).toContain('player.probing done xstate.done.actor.probe -> player.playing')
    expect(rows).toContain('player.probing error xstate.error.actor.probe [isLive && !hasCache] -> player.failed')
    expect(rows).toContain('player.probing after after liveness -> player.failed')
    expect(rows).toContain('player.playing.buffering always always [hasCache] -> player.playing.running')
  })
})

describe('renderStatecharts', () => {
  it('writes one Markdown file per machine with a mermaid block, and an index README.md', () => {
    const files = renderStatecharts({ player: player(), plain: createMachine({ id: 'plainId', initial: 'a', states: { a: {} } }) })
    expect([...files.keys()]).toEqual(['README.md', 'plain.md', 'player.md'])
    const index = files.get('README.md')!
    expect(index).toContain('| [plain](plain.md) | plainId |')
    expect(index).toContain('| [player](player.md) | Plays one thing |')
    const page = files.get('player.md')!
    expect(page).toContain('```mermaid\nstateDiagram-v2\n')
    expect(page).toContain(toMermaid(player()))
    expect(page).toContain('| `player.idle` | `play` | `hasCache` | `player.probing` |')
    for (const text of files.values()) expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/)
  })

  it('renders every registered machine', () => {
    const files = renderStatecharts(machines)
    for (const name of Object.keys(machines)) {
      expect(files.get('README.md')).toContain(`[${name}](`)
      expect([...files.values()].some((text) => text.startsWith('<!--') && text.includes(`# ${name}\n`))).toBe(true)
    }
  })
})

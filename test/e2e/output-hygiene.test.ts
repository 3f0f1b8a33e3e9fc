// Output hygiene (issue 18): colour only on a terminal and never with NO_COLOR, library
// `console.*` through the logger, an uncaught exception as one fatal JSON line, and journald
// priorities when stderr is the journal's stream. The daemon runs as the built CLI.
import { execFile, spawn } from 'node:child_process'
import { fstatSync } from 'node:fs'
import { open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { createRootLogger, syslogPriority } from '../../src/log.js'
import { cliPath, repoRoot, startDaemon, tempAgent, type DaemonProcess, type TempAgent } from '../helpers/daemon.js'
import { freePort } from '../helpers/ports.js'

const run = promisify(execFile)
const escape = '\u001b['
let daemon: DaemonProcess | undefined
let agent: TempAgent | undefined

afterEach(async () => {
  await daemon?.stop('SIGKILL')
  await agent?.cleanup()
  daemon = undefined
  agent = undefined
})

/** Runs the CLI on a pseudo-terminal (util-linux `script`), as a person's shell would. */
async function onTerminal(args: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run('script', ['-qec', `${process.execPath} ${cliPath} ${args}`, '/dev/null'], { env: { ...process.env, TERM: 'xterm-256color', ...env } })
  return stdout
}

describe('colour', () => {
  it('colours --help on a terminal, and not with NO_COLOR or when stdout is a pipe', async () => {
    const { NO_COLOR: _unset, ...withoutNoColor } = process.env
    expect(await onTerminal('--help', { ...withoutNoColor, NO_COLOR: '' })).toContain(escape)
    const plain = await onTerminal('--help', { NO_COLOR: '1' })
    expect(plain).toContain('media-agent <command>')
    expect(plain).not.toContain(escape)
    const piped = await run(process.execPath, [cliPath, 'daemon', '--help'], { env: { ...process.env, NO_COLOR: '' } })
    expect(piped.stdout).toContain('Run the agent in the foreground')
    expect(piped.stdout).not.toContain(escape)
  })

  it('writes readable logs to a terminal without colour when NO_COLOR is set', () => {
    const write = (env: NodeJS.ProcessEnv) => {
      let text = ''
      const terminal = Object.assign(new Writable({ write(chunk, _encoding, done) { text += String(chunk); done() } }), { isTTY: true })
      createRootLogger({ destination: terminal, env }).warn('disk almost full')
      return text
    }
    expect(write({})).toContain(escape)
    const plain = write({ NO_COLOR: '1' })
    expect(plain).toContain('disk almost full')
    expect(plain).not.toContain(escape)
  })
})

describe('the daemon\'s stderr', () => {
  it('carries a library\'s console.warn as a JSON log line and an uncaught exception as one fatal line, then exits 1', async () => {
    agent = await tempAgent({ baseUrl: `http://127.0.0.1:${await freePort()}` })
    daemon = startDaemon(['daemon', '--config', agent.configPath], { NODE_OPTIONS: `--import=${join(repoRoot, 'test/fixtures/operations/misbehaving-library.mjs')}` })
    await daemon.waitForLog((line) => line.msg === 'media-agent started')
    const child = daemon.child
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (exitCode) => resolve(exitCode))
      child.kill('SIGUSR2')
    })
    expect(code).toBe(1)

    const lines = daemon.stderrText().trimEnd().split('\n')
    // Every line is a JSON object: no bare warning text, no multi-line stack trace.
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow()
    const notice = daemon.logs.find((line) => String(line.msg).startsWith('library notice'))
    expect(notice).toMatchObject({ level: 40, component: 'console', msg: 'library notice: utp addon missing, falling back to TCP' })
    const fatal = daemon.logs.filter((line) => line.level === 60)
    expect(fatal).toHaveLength(1)
    expect(fatal[0]).toMatchObject({ msg: 'uncaught exception; exiting', err: { message: 'boom from a library callback' } })
    expect(String((fatal[0]!.err as { stack?: string }).stack)).toContain('misbehaving-library.mjs')
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ level: 60 })
  })

  it('prefixes each line with its syslog priority when stderr is the journal stream named in JOURNAL_STREAM', async () => {
    agent = await tempAgent({ baseUrl: `http://127.0.0.1:${await freePort()}` })
    const logFile = join(agent.dir, 'journal.log')
    const handle = await open(logFile, 'w')
    const info = fstatSync(handle.fd)
    // The file stands in for journald's socket: what matters is that its device:inode match.
    const child = spawn(process.execPath, [cliPath, 'daemon', '--config', agent.configPath], {
      env: { ...process.env, JOURNAL_STREAM: `${info.dev}:${info.ino}` },
      stdio: ['ignore', 'ignore', handle.fd],
    })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      // Bounded wait for the start line and a retry warning, read from the file as it grows.
      const deadline = Date.now() + 30_000
      let text = ''
      while (!(text.includes('"media-agent started"') && /<4>\{"level":40/.test(text)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        text = await readFile(logFile, 'utf8')
      }
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      child.kill('SIGKILL')
      await handle.close()
    }
    const lines = (await readFile(logFile, 'utf8')).trimEnd().split('\n')
    expect(lines.length).toBeGreaterThan(2)
    for (const line of lines) {
      const match = /^<(\d)>(\{.*\})$/.exec(line)
      expect(match, line).not.toBeNull()
      expect(Number(match![1])).toBe(syslogPriority((JSON.parse(match![2]!) as { level: number }).level))
    }
    expect(lines.some((line) => line.startsWith('<6>{"level":30'))).toBe(true)
    expect(lines.some((line) => line.startsWith('<4>{"level":40'))).toBe(true)
    await rm(logFile, { force: true })
  })

  it('leaves lines unprefixed when JOURNAL_STREAM names another stream (a child of a journald service writing elsewhere)', () => {
    let text = ''
    const sink = new Writable({ write(chunk, _encoding, done) { text += String(chunk); done() } })
    createRootLogger({ destination: sink, pretty: false, env: { JOURNAL_STREAM: '1:1' } }).info('hello')
    expect(text).toMatch(/^\{"level":30/)
  })
})

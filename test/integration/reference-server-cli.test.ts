import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { agentHeaders, call, registerBody } from './reference-server-helpers.js'

const child = fileURLToPath(new URL('./reference-server-cli-child.ts', import.meta.url))
let proc: ChildProcess | undefined

afterEach(() => {
  if (proc?.pid !== undefined && proc.exitCode === null && proc.signalCode === null) process.kill(proc.pid, 'SIGKILL')
  proc = undefined
})

function start(args: string[]): { proc: ChildProcess; output: () => string; line: (pattern: RegExp) => Promise<RegExpExecArray> } {
  const started = spawn(process.execPath, ['--import', 'tsx', child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  const waiters: (() => void)[] = []
  started.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk
    for (const waiter of waiters.splice(0)) waiter()
  })
  started.once('exit', () => {
    for (const waiter of waiters.splice(0)) waiter()
  })
  const line = (pattern: RegExp): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(stdout)
        if (match) resolve(match)
        else if (started.exitCode !== null) reject(new Error(`exited before printing ${pattern}: ${stdout}`))
        else waiters.push(check)
      }
      check()
    })
  return { proc: started, output: () => stdout, line }
}

describe('media-agent reference-server', () => {
  it('prints its URL, token and curl lines, serves agents, and stops with exit 0 on SIGTERM', async () => {
    const run = start(['--port', '0', '--access-token', 'cli-token', '--log-level', 'silent'])
    proc = run.proc
    const url = (await run.line(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/))[1]!
    await run.line(/Ctrl-C stops the server/)
    expect(run.output()).toContain('access token:   cli-token')
    expect(run.output()).toContain(`curl -s -H 'Authorization: Bearer cli-token'`)
    const res = await call(`${url}/api/internal/agent/register`, { headers: agentHeaders({ authorization: 'Bearer cli-token' }), body: registerBody('a1') })
    expect(res.status).toBe(200)
    const exited = once(proc, 'exit')
    process.kill(proc.pid!, 'SIGTERM')
    const [code] = await exited
    expect(code).toBe(0)
    expect(run.output()).toContain('reference server stopped')
  })

  it('makes up a random access token when none is given', async () => {
    const run = start(['--port', '0', '--log-level', 'silent'])
    proc = run.proc
    const token = (await run.line(/access token: +(\S+)\n/))[1]!
    expect(token.length).toBeGreaterThanOrEqual(32)
    const exited = once(proc, 'exit')
    process.kill(proc.pid!, 'SIGINT')
    expect((await exited)[0]).toBe(0)
  })

  it('refuses a port that is not a number', async () => {
    const run = start(['--port', 'eighty'])
    proc = run.proc
    const [code] = await once(proc, 'exit')
    expect(code).toBe(2)
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildCli } from '../../src/cli/index.js'
import { DaemonCommand } from '../../src/cli/commands/daemon.js'
import { parseDaemonArgs } from '../../src/cli/daemon-fast.js'
import { logLevels } from '../../src/log.js'

// The daemon's own parser (src/cli/daemon-fast.ts) must never read a command line differently
// from the full CLI: whatever it accepts, clipanion parses to the same config file and level.
const token = fc.oneof(
  fc.constantFrom('--config', '--log-level', '--help', '-h', '--', '--bogus', '=', ''),
  fc.constantFrom(...logLevels, 'loud', 'INFO'),
  fc.string({ maxLength: 8 }),
  fc.tuple(fc.constantFrom('--config=', '--log-level='), fc.oneof(fc.constantFrom(...logLevels), fc.string({ maxLength: 8 }))).map(([a, b]) => a + b),
)

describe('the daemon fast path and the full CLI', () => {
  it('agree on every command line the fast path accepts', () => {
    const cli = buildCli({ colors: false })
    fc.assert(fc.property(fc.array(token, { maxLength: 6 }), (args) => {
      const fast = parseDaemonArgs(args)
      if (fast === undefined) return
      const command = cli.process(['daemon', ...args])
      expect(command).toBeInstanceOf(DaemonCommand)
      const daemon = command as DaemonCommand
      expect(daemon.configPath).toBe(fast.configPath)
      expect(daemon.logLevel ?? 'info').toBe(fast.level)
    }), { numRuns: 2000 })
  })
})

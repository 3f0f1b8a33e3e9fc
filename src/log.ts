import { fstatSync } from 'node:fs'
import { format } from 'node:util'
import { pino, type Logger, type LevelWithSilent, type LoggerOptions as PinoOptions } from 'pino'
import { createRequire } from 'node:module'
import type PinoPretty from 'pino-pretty'
import { colorWanted } from './terminal.js'

export type { Logger }

export interface LoggerOptions {
  level?: LevelWithSilent
  /** Human-readable output; defaults to whether stderr is a terminal. */
  pretty?: boolean
  /** Where lines go; defaults to stderr (stdout stays free for command output). */
  destination?: NodeJS.WritableStream
  /** Read for NO_COLOR, TERM and JOURNAL_STREAM; process.env by default. */
  env?: NodeJS.ProcessEnv
}

export const logLevels: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

// Secrets never reach a log line, whatever object a caller passes (contract section 5).
const redactPaths = [
  'accessToken', 'access_token', 'signingSecret', 'signing_secret', 'token', 'adminToken',
  '*.accessToken', '*.access_token', '*.signingSecret', '*.signing_secret', '*.token', '*.adminToken',
  'headers.authorization', '*.headers.authorization', 'privateKey', '*.privateKey',
]

/** The one root logger of a process; everything else is a child of it (house rule 6). */
export function createRootLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info'
  const env = options.env ?? process.env
  const destination = options.destination ?? process.stderr
  const isTty = Boolean((destination as { isTTY?: boolean }).isTTY)
  const wantPretty = options.pretty ?? isTty
  const base: PinoOptions = { level, redact: { paths: redactPaths, censor: '[redacted]' }, base: { pid: process.pid } }
  if (wantPretty) {
    // Loaded only for a terminal: a daemon logging JSON never holds it (~10 MiB).
    const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty
    const stream = pretty({ destination: destination as NodeJS.WritableStream, sync: true, colorize: colorWanted(destination as { isTTY?: boolean }, env), ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' })
    return pino(base, stream)
  }
  if (underJournald(destination, env)) base.hooks = { streamWrite: journaldPriority }
  return pino(base, destination as NodeJS.WritableStream)
}

// ---- journald (issue 18): the sd-daemon `<N>` prefix gives each line its priority -----------------

/**
 * systemd sets JOURNAL_STREAM to `<device>:<inode>` of the stream it connected to stdout/stderr;
 * only when that is the stream we write to does journald read the prefix (sd-daemon(3)).
 */
export function underJournald(destination: NodeJS.WritableStream, env: NodeJS.ProcessEnv): boolean {
  const expected = env.JOURNAL_STREAM
  const fd = (destination as { fd?: unknown }).fd
  if (expected === undefined || expected === '' || typeof fd !== 'number') return false
  try {
    const info = fstatSync(fd)
    return `${info.dev}:${info.ino}` === expected
  } catch {
    return false
  }
}

/** pino level to syslog priority: fatal crit(2), error err(3), warn warning(4), info info(6), debug/trace debug(7). */
export function syslogPriority(pinoLevel: number): number {
  if (pinoLevel >= 60) return 2
  if (pinoLevel >= 50) return 3
  if (pinoLevel >= 40) return 4
  if (pinoLevel >= 30) return 6
  return 7
}

// Every line pino writes starts with `{"level":<n>,`: no parse needed.
function journaldPriority(line: string): string {
  const match = /^\{"level":(\d+)/.exec(line)
  return match === null ? line : `<${syslogPriority(Number(match[1]))}>${line}`
}

// ---- what the daemon does with output it does not write itself ---------------------------------

const consoleLevels = { error: 'error', warn: 'warn', info: 'info', log: 'info', debug: 'debug', trace: 'trace' } as const

/**
 * Sends `console.*` of libraries (webtorrent's notices, a dependency's deprecation warning) through
 * the logger as JSON lines with `component: "console"`, so stderr carries only log lines.
 * Returns the function that puts console back.
 */
export function routeConsoleToLogger(logger: Logger, target: Console = console): () => void {
  const log = logger.child({ component: 'console' })
  const saved = Object.fromEntries(Object.keys(consoleLevels).map((name) => [name, target[name as keyof typeof consoleLevels]]))
  for (const [name, level] of Object.entries(consoleLevels)) {
    ;(target as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => log[level](format(...args))
  }
  return () => Object.assign(target, saved)
}

/**
 * An uncaught exception or unhandled rejection becomes one fatal JSON line (the error with its
 * stack inside it), then the process exits 1, instead of Node's multi-line trace on stderr.
 */
export function logFatalErrors(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  const onException = (err: unknown, origin: string) => {
    logger.fatal({ err, origin }, origin === 'unhandledRejection' ? 'unhandled promise rejection; exiting' : 'uncaught exception; exiting')
    logger.flush()
    exit(1)
  }
  process.on('uncaughtException', onException)
  return () => {
    process.off('uncaughtException', onException)
  }
}

/** A logger that drops everything: the default for services under test. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}

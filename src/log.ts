import { pino, type Logger, type LevelWithSilent } from 'pino'
import pretty from 'pino-pretty'

export type { Logger }

export interface LoggerOptions {
  level?: LevelWithSilent
  /** Human-readable output; defaults to whether stderr is a terminal. */
  pretty?: boolean
  /** Where lines go; defaults to stderr (stdout stays free for command output). */
  destination?: NodeJS.WritableStream
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
  const destination = options.destination ?? process.stderr
  const isTty = Boolean((destination as { isTTY?: boolean }).isTTY)
  const wantPretty = options.pretty ?? isTty
  const base = { level, redact: { paths: redactPaths, censor: '[redacted]' }, base: { pid: process.pid } }
  if (wantPretty) {
    const stream = pretty({ destination: destination as NodeJS.WritableStream, sync: true, colorize: isTty, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' })
    return pino(base, stream)
  }
  return pino(base, destination as NodeJS.WritableStream)
}

/** A logger that drops everything: the default for services under test. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' })
}

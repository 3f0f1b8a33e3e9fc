// Changing one key of the user's config file in place (`vpn enable`, `funnel on`, ...): the
// file is the user's, so its comments, order and every other line stay exactly as written. Only
// the key's own line changes, or one line is added under its table (the table is appended when
// the file has none). The result is parsed again before it replaces the file, atomically and with
// the file's mode kept (a config holding a token is 0600).
import { readFile, stat } from 'node:fs/promises'
import { parse } from 'smol-toml'
import { ConfigError } from '../errors.js'
import { writeFileAtomic } from '../services/state/atomic-file.js'

export type ConfigScalar = boolean | number | string

/** Sets `[table] key = value` in the TOML text, touching no other line. `table` is dotted (`downloads.vpn`). */
export function setConfigValueInText(text: string, table: string, key: string, value: ConfigScalar): string {
  const rendered = `${key} = ${renderScalar(value)}`
  const lines = text.split('\n')
  const header = lines.findIndex((line) => tableHeaderName(line) === table)
  if (header === -1) {
    const body = text.length === 0 || text.endsWith('\n') ? text : `${text}\n`
    return `${body}${body.trim().length > 0 ? '\n' : ''}[${table}]\n${rendered}\n`
  }
  let end = lines.length
  for (let i = header + 1; i < lines.length; i++) {
    if (tableHeaderName(lines[i] ?? '') !== undefined) {
      end = i
      break
    }
  }
  const keyPattern = new RegExp(`^\\s*${escapeRegExp(key)}\\s*=`)
  for (let i = header + 1; i < end; i++) {
    if (keyPattern.test(lines[i] ?? '')) {
      const comment = trailingComment(lines[i] ?? '')
      lines[i] = comment ? `${rendered} ${comment}` : rendered
      return lines.join('\n')
    }
  }
  lines.splice(header + 1, 0, rendered)
  return lines.join('\n')
}

/** Sets one key in the config file at `file` (see setConfigValueInText). Throws ConfigError. */
export async function setConfigValue(file: string, table: string, key: string, value: ConfigScalar): Promise<void> {
  let text: string
  let mode: number
  try {
    text = await readFile(file, 'utf8')
    mode = (await stat(file)).mode & 0o777
  } catch (err) {
    throw new ConfigError(`Cannot read config file ${file}: ${(err as Error).message}.`, { file, expected: 'a readable TOML file', cause: err })
  }
  const next = setConfigValueInText(text, table, key, value)
  try {
    parse(next)
  } catch (err) {
    // The edit is line-based; a file laid out so that it cannot take the key is left untouched.
    throw new ConfigError(`Cannot set ${table}.${key} in ${file}: the file would no longer parse (${(err as Error).message.split('\n')[0]}); edit it by hand.`, { file, key: `${table}.${key}`, cause: err })
  }
  await writeFileAtomic(file, next, { mode })
}

function tableHeaderName(line: string): string | undefined {
  const match = /^\s*\[\s*([A-Za-z0-9_.\- ]+?)\s*\]\s*(#.*)?$/.exec(line)
  return match ? (match[1] ?? '').split('.').map((part) => part.trim()).join('.') : undefined
}

function trailingComment(line: string): string | undefined {
  // Only a comment after a value without quotes or after a closing quote: good enough for the
  // scalar lines this module writes, and a line it cannot read keeps no comment rather than a wrong one.
  const match = /^[^"'#]*(?:"[^"]*"|'[^']*')?[^"'#]*(#.*)$/.exec(line)
  return match?.[1]
}

function renderScalar(value: ConfigScalar): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError('config values must be finite numbers')
  return String(value)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

// Shape checks of agent bodies. Strict where the protocol insists (VPNActive is never omitted,
// agentId is always sent), lenient elsewhere: fields present must have the right type.
import type { LibrarySync, RegisterRequest, SyncRequest, UpgradeResult } from '../protocol/wire.js'
import { HttpError, isRecord } from './http.js'

type Kind = 'string' | 'boolean' | 'number' | 'object' | 'array'

function kindOf(value: unknown): Kind | 'other' {
  if (Array.isArray(value)) return 'array'
  if (value === null) return 'other'
  const type = typeof value
  return type === 'string' || type === 'boolean' || type === 'number' || type === 'object' ? type : 'other'
}

function check(body: Record<string, unknown>, what: string, required: Record<string, Kind>, optional: Record<string, Kind> = {}): void {
  for (const [key, kind] of Object.entries(required)) {
    if (kindOf(body[key]) !== kind) throw new HttpError(400, 'bad_request', `${what}: ${key} must be a ${kind}${key === 'VPNActive' ? ' (always sent, never omitted)' : ''}`)
  }
  for (const [key, kind] of Object.entries(optional)) {
    if (body[key] !== undefined && kindOf(body[key]) !== kind) throw new HttpError(400, 'bad_request', `${what}: ${key} must be a ${kind} when present`)
  }
}

function object(body: unknown, what: string): Record<string, unknown> {
  if (!isRecord(body)) throw new HttpError(400, 'bad_request', `${what}: a JSON object is expected`)
  return body
}

function nonEmptyAgentId(body: Record<string, unknown>, what: string): void {
  if (typeof body.agentId !== 'string' || body.agentId.trim() === '') throw new HttpError(400, 'bad_request', `${what}: agentId must be a non-empty string`)
}

export function parseRegisterRequest(body: unknown): RegisterRequest {
  const value = object(body, 'register')
  nonEmptyAgentId(value, 'register')
  check(value, 'register', { version: 'string', VPNActive: 'boolean' }, {
    hostname: 'string', platform: 'object', streamServer: 'object', FunnelURL: 'string', VPNMode: 'string', VPNExitServer: 'string', hwAccel: 'object',
  })
  if (value.hwAccel !== undefined) checkHwAccel(value.hwAccel as Record<string, unknown>)
  return value as unknown as RegisterRequest
}

// The hardware diagnostic (contract 2.4, protocol.md 1 and 7.2): the web shows the chosen encoder
// and the cap from it, so every field it reads must be there with its type.
function checkHwAccel(hwAccel: Record<string, unknown>): void {
  check(hwAccel, 'register: hwAccel', {
    ffmpegVersion: 'string', ffmpegPath: 'string', encoders: 'array', devices: 'array', drivers: 'array',
    chosenEncoder: 'string', maxTranscodeHeight: 'number', probeMs: 'number', candidates: 'array',
  }, { error: 'string' })
  const strings = (key: 'encoders' | 'drivers') => {
    if (!(hwAccel[key] as unknown[]).every((item) => typeof item === 'string')) throw new HttpError(400, 'bad_request', `register: hwAccel.${key} must hold strings`)
  }
  strings('encoders')
  strings('drivers')
  ;(hwAccel.devices as unknown[]).forEach((device, index) => {
    if (!isRecord(device)) throw new HttpError(400, 'bad_request', `register: hwAccel.devices[${index}] must be an object`)
    check(device, `register: hwAccel.devices[${index}]`, { path: 'string', driver: 'string' }, { error: 'string' })
  })
  ;(hwAccel.candidates as unknown[]).forEach((candidate, index) => {
    if (!isRecord(candidate)) throw new HttpError(400, 'bad_request', `register: hwAccel.candidates[${index}] must be an object`)
    check(candidate, `register: hwAccel.candidates[${index}]`, { encoder: 'string', ok: 'boolean', ms: 'number' }, { error: 'string' })
  })
}

export function parseSyncRequest(body: unknown): SyncRequest {
  const value = object(body, 'sync')
  nonEmptyAgentId(value, 'sync')
  check(value, 'sync', { tasks: 'array', appliedControls: 'array', VPNActive: 'boolean' }, {
    version: 'string', sessions: 'array', FunnelURL: 'string', VPNMode: 'string', VPNExitServer: 'string', streamServer: 'object',
  })
  const tasks = value.tasks as unknown[]
  tasks.forEach((task, index) => {
    if (!isRecord(task) || typeof task.id !== 'string') throw new HttpError(400, 'bad_request', `sync: tasks[${index}].id must be a string`)
  })
  const applied = value.appliedControls as unknown[]
  if (!applied.every((id) => typeof id === 'string')) throw new HttpError(400, 'bad_request', 'sync: appliedControls must hold strings')
  if (value.sessions === undefined) value.sessions = []
  return value as unknown as SyncRequest
}

export function parseSessionReady(body: unknown): string {
  const value = object(body, 'session-ready')
  if (typeof value.sessionId !== 'string' || value.sessionId === '') throw new HttpError(400, 'bad_request', 'session-ready: sessionId must be a non-empty string')
  return value.sessionId
}

const outcomes = new Set(['success', 'failure', 'noop'])

export function parseUpgradeResult(body: unknown): UpgradeResult {
  const value = object(body, 'upgrade-result')
  if (typeof value.outcome !== 'string' || !outcomes.has(value.outcome)) throw new HttpError(400, 'bad_request', 'upgrade-result: outcome must be success, failure or noop')
  check(value, 'upgrade-result', { fromVersion: 'string', toVersion: 'string' }, { error: 'string' })
  return value as unknown as UpgradeResult
}

export function parseLibrarySync(body: unknown): LibrarySync {
  const value = object(body, 'library')
  nonEmptyAgentId(value, 'library')
  check(value, 'library', { scanId: 'string', libraries: 'array' }, { mode: 'string', baseScanId: 'string', part: 'number', parts: 'number' })
  if (value.mode !== undefined && value.mode !== 'full' && value.mode !== 'delta') throw new HttpError(400, 'bad_request', 'library: mode must be "full" or "delta"')
  if (value.mode === 'delta' && typeof value.baseScanId !== 'string') throw new HttpError(400, 'bad_request', 'library: a delta needs baseScanId, the last scan the server acknowledged')
  if (value.part !== undefined || value.parts !== undefined) {
    const { part, parts } = value as { part?: unknown; parts?: unknown }
    if (value.mode === 'delta') throw new HttpError(400, 'bad_request', 'library: only a full goes in parts')
    if (!Number.isInteger(part) || !Number.isInteger(parts) || (part as number) < 1 || (part as number) > (parts as number)) {
      throw new HttpError(400, 'bad_request', 'library: part and parts must be integers with 1 <= part <= parts')
    }
  }
  const absolute = (path: unknown) => typeof path === 'string' && path.startsWith('/')
  ;(value.libraries as unknown[]).forEach((library, index) => {
    if (!isRecord(library) || !absolute(library.root) || !Array.isArray(library.items)) {
      throw new HttpError(400, 'bad_request', `library: libraries[${index}] needs an absolute root and an items array`)
    }
    if (library.removed !== undefined && (!Array.isArray(library.removed) || !library.removed.every(absolute))) {
      throw new HttpError(400, 'bad_request', `library: libraries[${index}].removed must hold absolute paths`)
    }
    library.items.forEach((item, at) => {
      const where = `library: libraries[${index}].items[${at}]`
      if (!isRecord(item) || !absolute(item.path)) throw new HttpError(400, 'bad_request', `${where}.path must be an absolute path`)
      if (!Number.isInteger(item.mtime)) throw new HttpError(400, 'bad_request', `${where}.mtime must be integer milliseconds since the epoch`)
      if (!Number.isInteger(item.size) || (item.size as number) < 0) throw new HttpError(400, 'bad_request', `${where}.size must be a byte count`)
      if (!Array.isArray(item.audio) || !Array.isArray(item.subtitles)) throw new HttpError(400, 'bad_request', `${where} needs audio and subtitles arrays`)
    })
  })
  return value as unknown as LibrarySync
}

// Agent authentication (protocol.md 1): `Authorization: Bearer <ACCESS_TOKEN>` on every call, and
// the MIN_AGENT_VERSION gate (contract 9) answered with 426.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { agentHeaders } from '../protocol/wire.js'
import { compareVersions } from './semver.js'

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest()
}

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
export function bearerMatches(authorization: string | undefined, accessToken: string): boolean {
  if (typeof authorization !== 'string') return false
  const match = /^Bearer[ ]+(.+)$/i.exec(authorization.trim())
  const given = match?.[1]?.trim() ?? ''
  const ok = timingSafeEqual(digest(given), digest(accessToken))
  return ok && given.length > 0
}

export function requestBearerMatches(req: IncomingMessage, accessToken: string): boolean {
  return bearerMatches(req.headers.authorization, accessToken)
}

export type VersionCheck = { ok: true; version: string | undefined } | { ok: false; version: string }

/**
 * A missing `X-Agent-Version` passes (curl users, tools); a present one that is not a semantic
 * version or is below the floor does not.
 */
export function checkAgentVersion(req: IncomingMessage, minAgentVersion: string): VersionCheck {
  const header = req.headers[agentHeaders.version]
  const version = Array.isArray(header) ? header[0] : header
  if (version === undefined || version === '') return { ok: true, version: undefined }
  const order = compareVersions(version, minAgentVersion)
  if (order === undefined || order < 0) return { ok: false, version }
  return { ok: true, version }
}

// Opening the source of a direct-play session before it is announced ready (docs/sessions.md).
import type { StreamSession } from '../../protocol/wire.js'
import { createSessionSource, type SessionSource, type SessionSourceDeps } from './session-source.js'

export type OpenSourceDeps = Omit<SessionSourceDeps, 'signal'>

/**
 * The source of a direct-play session, proven to answer: a debrid link gets its one HEAD
 * (createSessionSource), a file is opened and fstat'ed (the descriptor then serves the first
 * player requests from the open-file cache). Throws what the source throws.
 */
export async function openDirectSource(session: StreamSession, deps: OpenSourceDeps, signal: AbortSignal): Promise<SessionSource> {
  const opened = await createSessionSource(session, { ...deps, signal })
  try {
    const probe = await opened.source.open(signal)
    await probe.close()
  } catch (error) {
    await opened.dispose().catch(() => undefined)
    throw error
  }
  return opened
}

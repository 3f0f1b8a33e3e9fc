// The encoders part's admin route (docs/encoders.md "Probing again"): `POST /api/encoders/reprobe`
// probes again in the running daemon, waits for the result (bounded like any probe) and answers it.
// protocol.md names no command for it: `media-agent probe-hwaccel` runs its own detection and never
// asks the daemon; this route is for a person (or the web's tooling) who fixed a driver and wants
// the daemon, and through its new register the server, to see it without a restart.
import type { AdminRoute } from '../server/admin-server.js'
import type { EncodersPart } from './encoders-part.js'

export function encodersAdminRoutes(part: Pick<EncodersPart, 'reprobe'>): AdminRoute[] {
  return [
    {
      method: 'POST',
      path: '/api/encoders/reprobe',
      handle: async () => {
        try {
          return { status: 200, json: await part.reprobe() }
        } catch (error) {
          // The actor is restarting, or the probe outlived its bound: say so, the daemon goes on.
          return { status: 503, json: { error: 'probe_unavailable', message: (error as Error).message } }
        }
      },
    },
  ]
}

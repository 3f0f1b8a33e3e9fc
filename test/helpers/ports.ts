import { createServer } from 'node:net'

// Ports for servers a test starts by number (a daemon's admin and stream ports, a tracker's):
// the port is found free here, closed, and bound again by another process a moment later. A
// port the kernel picks for `listen(0)` comes from its ephemeral range (32768-60999 on Linux),
// the same range every outgoing connection takes its local port from, so in that moment any
// test's connection - or another worker's `listen(0)` - can take it, and the daemon fails with
// EADDRINUSE (seen in CI). The ports handed out here lie below that range, each worker of the
// test run in a slice of its own, in turn, and each is checked free before it is handed out.

const firstPort = 20_000
const slicePorts = 1_000
const slices = 12

/** This process's slice: vitest's worker number, else the pid (a bench, a script). */
function sliceStart(): number {
  const worker = Number(process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID)
  const index = Number.isInteger(worker) && worker > 0 ? worker - 1 : process.pid
  return firstPort + (index % slices) * slicePorts
}

let next = 0

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/** A loopback TCP port that is free now, outside the kernel's ephemeral range and not handed out before by this process. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const start = sliceStart()
  for (let tried = 0; tried < slicePorts; tried++) {
    const port = start + (next++ % slicePorts)
    if (await bindable(port, host)) return port
  }
  throw new Error(`no free port in ${start}-${start + slicePorts - 1} on ${host}`)
}

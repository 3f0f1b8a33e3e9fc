import { describe, expect, it } from 'vitest'
import type { TaskReport } from '../../src/protocol/wire.js'
import { formatBytes, formatDuration, formatTaskLines } from '../../src/services/torrent/format.js'

function task(over: Partial<TaskReport>): TaskReport {
  return {
    id: 't1', infoHash: 'a'.repeat(40), name: 'Movie', state: 'downloading', progress: 0.5, size: 2 * 1024 ** 3, downloaded: 1024 ** 3,
    uploaded: 0, downloadSpeed: 3.5 * 1024 ** 2, uploadSpeed: 0, peers: 7, etaSeconds: 310, files: [], ...over,
  }
}

describe('status lines for download tasks', () => {
  it('shows a progress bar, state, speeds, peers and eta of a downloading task', () => {
    expect(formatTaskLines([task({})])).toEqual([
      't1  [##########----------]  50.0%  downloading        Movie  down 3.5 MiB/s  up 0 B/s  7 peers  eta 5m10s  1.0 GiB / 2.0 GiB',
    ])
  })

  it('shows the error of a failed task on its own line and no speeds for idle tasks', () => {
    const lines = formatTaskLines([
      task({ id: 't2', state: 'error', progress: 0.1, error: 'no space left on device while writing "Movie" to /d', downloadSpeed: 0, peers: 0 }),
      task({ id: 't3', state: 'completed', progress: 1, downloaded: 2 * 1024 ** 3, name: '' }),
    ])
    expect(lines).toEqual([
      't2  [##------------------]  10.0%  error              Movie  1.0 GiB / 2.0 GiB',
      '    error: no space left on device while writing "Movie" to /d',
      `t3  [####################] 100.0%  completed          ${'a'.repeat(40)}  2.0 GiB / 2.0 GiB`,
    ])
  })

  it('says so when there are no tasks', () => {
    expect(formatTaskLines([])).toEqual(['no download tasks'])
  })

  it('formats sizes and durations for people', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1536)).toBe('1.5 KiB')
    expect(formatDuration(59)).toBe('59s')
    expect(formatDuration(7260)).toBe('2h01m')
    expect(formatDuration(3 * 86400)).toBe('3d')
  })
})

import type { TaskReport } from '../../protocol/wire.js'

// Lines of `media-agent status` for the download tasks: one line per task with a progress bar,
// state, speeds and peers, and a second indented line with the error of a failed task.

const barWidth = 20

export function formatTaskLines(tasks: TaskReport[]): string[] {
  if (tasks.length === 0) return ['no download tasks']
  const lines: string[] = []
  for (const task of tasks) {
    const progress = clamp01(task.progress)
    const filled = Math.round(progress * barWidth)
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}]`
    const pct = `${(progress * 100).toFixed(1)}%`.padStart(6)
    const name = task.name || task.infoHash || task.id
    const parts = [`${bar} ${pct}`, task.state.padEnd(17), name]
    if (task.state === 'downloading' || task.state === 'seeding' || task.state === 'fetching_metadata') {
      parts.push(`down ${formatRate(task.downloadSpeed)}`, `up ${formatRate(task.uploadSpeed)}`, `${task.peers} ${task.peers === 1 ? 'peer' : 'peers'}`)
      if (task.state === 'downloading' && task.etaSeconds !== null) parts.push(`eta ${formatDuration(task.etaSeconds)}`)
    }
    if (task.size > 0) parts.push(`${formatBytes(task.downloaded)} / ${formatBytes(task.size)}`)
    lines.push(`${task.id}  ${parts.join('  ')}`)
    if (task.state === 'error' && task.error) lines.push(`    error: ${task.error}`)
  }
  return lines
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = Math.max(0, bytes || 0)
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`
}

export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`
  const h = Math.floor(s / 3600)
  if (h < 48) return `${h}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
  return `${Math.floor(h / 24)}d`
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0
}

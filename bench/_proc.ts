// What the benchmarks read about a process from /proc (Linux), so that every client in a
// comparison is measured the same way.
import { readFile, readdir } from 'node:fs/promises'
import { loadavg } from 'node:os'

/** USER_HZ on Linux: the unit of the CPU times in /proc/<pid>/stat. */
export const clockTicksPerSecond = 100

function statFields(text: string): string[] {
  // Fields after the command name (which may hold spaces) start at ") "; index 0 is field 3 (state).
  return text.slice(text.lastIndexOf(')') + 2).split(' ')
}

/** User + system CPU seconds of the process itself (all its threads), from /proc/<pid>/stat. */
export async function cpuSeconds(pid: number): Promise<number> {
  const fields = statFields(await readFile(`/proc/${pid}/stat`, 'utf8'))
  return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond // utime, stime
}

/** User + system CPU seconds of the children the process has waited for (cutime + cstime). */
export async function waitedChildrenCpuSeconds(pid: number): Promise<number> {
  const fields = statFields(await readFile(`/proc/${pid}/stat`, 'utf8'))
  return (Number(fields[13]) + Number(fields[14])) / clockTicksPerSecond
}

/** A `Name: <number>` field of /proc/<pid>/status (VmRSS and VmHWM are in KiB). */
export async function statusField(pid: number, field: string): Promise<number> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8')
  const match = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)
  if (match === null) throw new Error(`no ${field} in /proc/${pid}/status`)
  return Number(match[1])
}

/** Resident set in MiB. */
export async function rssMiB(pid: number): Promise<number> {
  return (await statusField(pid, 'VmRSS')) / 1024
}

export interface ContextSwitches {
  voluntary: number
  involuntary: number
  /** Per thread id, so that a later reading can tell threads that came and went. */
  threads: Map<string, { voluntary: number; involuntary: number }>
}

/** Context switches (voluntary: the thread slept and was woken; involuntary: preempted) of every thread. */
export async function contextSwitches(pid: number): Promise<ContextSwitches> {
  const total: ContextSwitches = { voluntary: 0, involuntary: 0, threads: new Map() }
  for (const task of await readdir(`/proc/${pid}/task`)) {
    try {
      const text = await readFile(`/proc/${pid}/task/${task}/status`, 'utf8')
      const thread = {
        voluntary: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(text)?.[1] ?? 0),
        involuntary: Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(text)?.[1] ?? 0),
      }
      total.threads.set(task, thread)
      total.voluntary += thread.voluntary
      total.involuntary += thread.involuntary
    } catch {
      // A thread ended between readdir and read.
    }
  }
  return total
}

/**
 * Context switches between two readings, thread by thread: a thread started in between counts
 * in full; one that ended in between is lost (so this is a lower bound for clients whose thread
 * pools come and go; a plain difference of totals could even go negative).
 */
export function switchesBetween(before: ContextSwitches, after: ContextSwitches): { voluntary: number; involuntary: number } {
  const delta = { voluntary: 0, involuntary: 0 }
  for (const [id, thread] of after.threads) {
    const earlier = before.threads.get(id)
    delta.voluntary += thread.voluntary - (earlier?.voluntary ?? 0)
    delta.involuntary += thread.involuntary - (earlier?.involuntary ?? 0)
  }
  return delta
}

export const loadAverage1m = (): number => Number(loadavg()[0]!.toFixed(2))

export interface ProcessCpu {
  pid: number
  ppid: number
  /** The command name (`comm`, at most 15 characters). */
  command: string
  /** Its own user + system CPU time. */
  cpuMs: number
  /** Of the children it has waited for (cutime + cstime): a process that ended within a window. */
  waitedChildrenMs: number
}

/** Every process's CPU times now, in one pass over /proc (processes that end meanwhile are skipped). */
export async function allProcessCpu(): Promise<ProcessCpu[]> {
  const all: ProcessCpu[] = []
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const text = await readFile(`/proc/${name}/stat`, 'utf8')
      const fields = statFields(text)
      all.push({
        pid: Number(name),
        ppid: Number(fields[1]),
        command: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
        cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond,
        waitedChildrenMs: ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicksPerSecond,
      })
    } catch {
      // ended between readdir and read
    }
  }
  return all
}

/** Whether `pid` is `ancestor` or descends from it, in a snapshot of allProcessCpu(). */
export function descendsFrom(all: Map<number, ProcessCpu>, pid: number, ancestor: number): boolean {
  for (let current = all.get(pid), hops = 0; current && hops < 64; current = all.get(current.ppid), hops++) {
    if (current.pid === ancestor) return true
  }
  return false
}

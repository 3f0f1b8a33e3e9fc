import { existsSync, readFileSync } from 'node:fs'

/** Docker (`/.dockerenv`), Podman (`/run/.containerenv`), or a container cgroup of PID 1. */
export function isContainer(): boolean {
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv')) return true
  try {
    return /docker|kubepods|containerd|libpod|lxc/.test(readFileSync('/proc/1/cgroup', 'utf8'))
  } catch {
    return false
  }
}

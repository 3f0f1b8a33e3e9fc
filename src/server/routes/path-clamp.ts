// Thumbnail paths (contract 4.2, 7): the requested path must resolve, through every symlink, to a
// regular file under one of the allowed roots (library paths and the downloads dir), themselves
// resolved. Anything else is the usual 404. ffmpeg then gets the resolved path, not the request's.
import { realpath, stat } from 'node:fs/promises'
import { isAbsolute, relative, sep } from 'node:path'

function inside(root: string, target: string): boolean {
  const rel = relative(root, target)
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)
}

/** The real path of a regular file under one of `roots`, or undefined. Never throws. */
export async function resolveClampedFile(requested: string, roots: readonly string[]): Promise<string | undefined> {
  if (!isAbsolute(requested) || requested.includes('\0')) return undefined
  let real: string
  try {
    real = await realpath(requested)
  } catch {
    return undefined
  }
  let allowed = false
  for (const root of roots) {
    if (!isAbsolute(root)) continue
    const realRoot = await realpath(root).catch(() => undefined)
    if (realRoot !== undefined && inside(realRoot, real)) {
      allowed = true
      break
    }
  }
  if (!allowed) return undefined
  const info = await stat(real).catch(() => undefined)
  return info?.isFile() === true ? real : undefined
}

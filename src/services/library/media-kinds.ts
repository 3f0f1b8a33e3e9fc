// Which files a library scan looks at (protocol.md 7.6): media by extension, confirmed by
// ffprobe; subtitle sidecars beside a video with the same stem. Pure.
import { basename, dirname, extname } from 'node:path'

export const videoExtensions: ReadonlySet<string> = new Set(['mkv', 'mp4', 'm4v', 'avi', 'mov', 'webm', 'ts', 'm2ts', 'mts', 'wmv', 'flv', 'mpg', 'mpeg', 'ogv', '3gp'])
export const audioExtensions: ReadonlySet<string> = new Set(['mp3', 'flac', 'm4a', 'aac', 'ogg', 'opus', 'wav'])
export const sidecarExtensions: ReadonlySet<string> = new Set(['srt', 'vtt', 'ass', 'ssa'])

export type FileKind = 'video' | 'audio' | 'sidecar'

/** Lowercase extension without the dot. */
export function extensionOf(path: string): string {
  return extname(path).slice(1).toLowerCase()
}

export function fileKindOf(path: string): FileKind | undefined {
  const ext = extensionOf(path)
  if (videoExtensions.has(ext)) return 'video'
  if (audioExtensions.has(ext)) return 'audio'
  if (sidecarExtensions.has(ext)) return 'sidecar'
  return undefined
}

const sidecarCodecs: Record<string, string> = { srt: 'subrip', vtt: 'webvtt', ass: 'ass', ssa: 'ssa' }

export interface Sidecar {
  /** Absolute path of the subtitle file. */
  path: string
  codec: string
  /** From a `movie.<lang>.srt` name (`en`, `pt-BR`, `eng`), else `und`. */
  language: string
}

// `movie.en.srt`, `movie.pt-BR.srt`, `movie.eng.forced.srt`: the language tag between the stem
// and the extension. Anything else between them means another video's sidecar.
const languageTag = /^([a-z]{2,3}(?:[-_][a-z0-9]{2,4})?)(?:\.(?:forced|sdh|cc|default))?$/i

/**
 * The sidecar of `video` that `subtitle` is, if any: same folder, and the subtitle's name is
 * the video's stem, optionally followed by a language tag (`Movie.srt`, `Movie.en.srt`).
 */
export function sidecarFor(video: string, subtitle: string): Sidecar | undefined {
  if (dirname(video) !== dirname(subtitle)) return undefined
  const ext = extensionOf(subtitle)
  const codec = sidecarCodecs[ext]
  if (codec === undefined) return undefined
  const stem = basename(video, extname(video))
  const subtitleStem = basename(subtitle, extname(subtitle))
  if (subtitleStem === stem) return { path: subtitle, codec, language: 'und' }
  if (!subtitleStem.startsWith(`${stem}.`)) return undefined
  const tag = languageTag.exec(subtitleStem.slice(stem.length + 1))
  if (tag === null) return undefined
  return { path: subtitle, codec, language: tag[1]!.replace('_', '-') }
}

/** Sidecars of each video among `paths` (all in one folder or not: matched per folder). */
export function matchSidecars(videos: readonly string[], subtitles: readonly string[]): Map<string, Sidecar[]> {
  const byFolder = new Map<string, string[]>()
  for (const subtitle of subtitles) {
    const folder = dirname(subtitle)
    const list = byFolder.get(folder) ?? []
    list.push(subtitle)
    byFolder.set(folder, list)
  }
  const result = new Map<string, Sidecar[]>()
  for (const video of videos) {
    const candidates = byFolder.get(dirname(video))
    if (!candidates) continue
    const found: Sidecar[] = []
    for (const subtitle of candidates) {
      const sidecar = sidecarFor(video, subtitle)
      if (sidecar) found.push(sidecar)
    }
    if (found.length > 0) result.set(video, found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
  }
  return result
}


// Every test run gets a temp dir of its own (TMPDIR, which os.tmpdir() and mktemp read), so what
// a test leaves behind is visible: design.md's rule that tests clean up the temp dirs they made.
// At the end, anything the project's own helpers and tests created (names starting `ma-`, `ma<N>-`
// or `media-agent-`) and did not remove fails the run, named; what other programs left there
// (Chromium's or ffmpeg's scratch files) is only removed. The dir is then removed either way.
import { mkdtempSync, chmodSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Names this project's tests create under the temp dir (test/helpers and the tests' own mkdtemp calls). */
const ownTempName = /^(ma\d*-|media-agent-)/

export default function setup(): () => void {
  const previous = process.env.TMPDIR
  const dir = mkdtempSync(join(previous ?? tmpdir(), 'vitest-run-'))
  // Like /tmp: helpers hand dirs to other users (opentracker drops to `nobody`; file-mode checks).
  chmodSync(dir, 0o1777)
  process.env.TMPDIR = dir
  return () => {
    const left = readdirSync(dir)
    // What each leftover holds (a few paths deep): names that tell which test left it.
    const contents = (name: string) => {
      try {
        return (readdirSync(join(dir, name), { recursive: true }) as string[]).slice(0, 5).join(' ')
      } catch {
        return ''
      }
    }
    const ours = left.filter((name) => ownTempName.test(name)).sort().map((name) => `${name} [${contents(name)}]`)
    rmSync(dir, { recursive: true, force: true })
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    if (ours.length > 0) throw new Error(`tests left ${ours.length} temp dir(s) behind: ${ours.join(', ')}`)
  }
}

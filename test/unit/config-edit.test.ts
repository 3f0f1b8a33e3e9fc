import { afterEach, describe, expect, it } from 'vitest'
import { mkdtemp, readFile, rm, stat, writeFile, chmod } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { parse } from 'smol-toml'
import { setConfigValue, setConfigValueInText } from '../../src/config/edit.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

const original = `# my agent
[server]
base_url = "https://media.example"  # the web server
access_token = "secret"

[downloads.vpn]
enabled = false   # off until I say so

[library]
paths = ["/srv/media"]
`

describe('changing one config key in place', () => {
  it('replaces the value and keeps every other line, comments included', () => {
    const next = setConfigValueInText(original, 'downloads.vpn', 'enabled', true)
    expect(next).toBe(original.replace('enabled = false   # off until I say so', 'enabled = true # off until I say so'))
  })

  it('adds the key under an existing table and appends a missing table', () => {
    const added = setConfigValueInText(original, 'server', 'mirrors_note', 'x')
    expect((parse(added) as any).server.mirrors_note).toBe('x')
    const appended = setConfigValueInText(original, 'funnel', 'enabled', true)
    expect(appended.startsWith(original)).toBe(true)
    expect((parse(appended) as any).funnel).toEqual({ enabled: true })
    expect(setConfigValueInText('', 'funnel', 'enabled', false)).toBe('[funnel]\nenabled = false\n')
  })

  it('yields a parseable document with the value set, whatever the scalar', () => {
    fc.assert(
      fc.property(fc.oneof(fc.boolean(), fc.integer(), fc.string()), fc.constantFrom('server', 'downloads.vpn', 'funnel', 'library'), (value, table) => {
        const doc = parse(setConfigValueInText(original, table, 'k', value)) as any
        const holder = table.split('.').reduce((node, part) => node[part], doc)
        expect(holder.k).toEqual(value)
        expect(doc.server.base_url).toBe('https://media.example')
      }),
    )
  })

  it('rewrites the file atomically with its mode kept, and leaves a file it cannot edit untouched', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ma-config-edit-'))
    dirs.push(dir)
    const file = join(dir, 'config.toml')
    await writeFile(file, original)
    await chmod(file, 0o600)
    await setConfigValue(file, 'downloads.vpn', 'enabled', true)
    expect((parse(await readFile(file, 'utf8')) as any).downloads.vpn.enabled).toBe(true)
    expect((await stat(file)).mode & 0o777).toBe(0o600)

    // A dotted key already defines downloads.vpn.enabled: adding a table would make it a duplicate.
    const awkward = '[downloads]\nvpn.enabled = false\n'
    await writeFile(file, awkward)
    await expect(setConfigValue(file, 'downloads.vpn', 'enabled', true)).rejects.toMatchObject({ code: 'MA_ERR_CONFIG' })
    expect(await readFile(file, 'utf8')).toBe(awkward)
  })
})

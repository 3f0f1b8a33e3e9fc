import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : []
  })
}

describe('error codes', () => {
  const codes = new Set(sourceFiles('src').flatMap((file) => readFileSync(file, 'utf8').match(/MA_ERR_[A-Z0-9_]+/g) ?? []))
  const documented = new Set(readFileSync('docs/errors.md', 'utf8').match(/MA_ERR_[A-Z0-9_]+/g) ?? [])

  it('every MA_ERR_* code raised in src/ has a row in docs/errors.md', () => {
    expect(codes.size).toBeGreaterThan(0)
    expect([...codes].filter((code) => !documented.has(code)).sort()).toEqual([])
  })

  it('docs/errors.md lists no code that the source no longer raises', () => {
    expect([...documented].filter((code) => !codes.has(code)).sort()).toEqual([])
  })
})

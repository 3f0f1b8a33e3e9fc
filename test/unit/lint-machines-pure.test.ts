import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// House rule 1 (machines are pure) is enforced by the linter; this keeps the rule from being
// dropped or weakened without anyone noticing.
describe('the purity rule for machines', () => {
  const eslint = new ESLint()
  const lint = async (code: string, filePath: string) => (await eslint.lintText(code, { filePath }))[0]!.messages.map((message) => message.ruleId)

  it('rejects Node built-ins and services imported by a machine', async () => {
    expect(await lint("import { readFile } from 'node:fs/promises'\nexport const x = readFile\n", 'src/machines/probe.machine.ts')).toContain('no-restricted-imports')
    expect(await lint("import { x } from '../services/state/state-dir.js'\nexport const y = x\n", 'src/machines/probe.machine.ts')).toContain('no-restricted-imports')
  })

  it('allows xstate and type imports in machines, and Node built-ins elsewhere', async () => {
    expect(await lint("import { setup } from 'xstate'\nimport type { Control } from '../protocol/wire.js'\nexport const m = setup({})\nexport type C = Control\n", 'src/machines/probe.machine.ts')).toEqual([])
    expect(await lint("import { readFile } from 'node:fs/promises'\nexport const x = readFile\n", 'src/services/probe.ts')).toEqual([])
  })
})

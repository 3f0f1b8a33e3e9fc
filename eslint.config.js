// @ts-check
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'packages/', 'coverage/', 'statecharts/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Machines are pure (design.md house rule 1): no I/O, no Node built-ins, no services.
    files: ['src/machines/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['node:*'], message: 'Machines are pure: no Node built-ins. Bind I/O in src/system/implementations.ts.' },
          { group: ['**/services/**', '**/server/**', '**/system/**'], message: 'Machines import only xstate and types.' },
        ],
        paths: ['fs', 'path', 'http', 'https', 'net', 'child_process', 'os', 'crypto', 'dgram', 'undici', 'execa', 'pino', 'webtorrent'].map((name) => ({ name, message: 'Machines are pure: no I/O modules.' })),
      }],
    },
  },
)

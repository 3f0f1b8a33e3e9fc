import { defineConfig } from 'vitest/config'

// Four tiers (design.md): unit and property are pure and fast; integration and e2e use real
// processes (ffmpeg, nginx, aria2c, wireguard-go, chromium) and therefore run one file at a time.
export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'property', include: ['test/property/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], fileParallelism: false, testTimeout: 120_000, hookTimeout: 120_000 } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], fileParallelism: false, testTimeout: 180_000, hookTimeout: 180_000 } },
    ],
    testTimeout: 20_000,
    // A temp dir per run, checked at the end for what tests left behind (test/setup/temp-dir.ts).
    globalSetup: ['test/setup/temp-dir.ts'],
    // clipanion 3 has no "exports": Vite picks lib/advanced/index.mjs, whose directory import
    // ('../platform') plain Node ESM refuses; inlined, Vite resolves it (Node itself loads the CJS build).
    server: { deps: { inline: ['clipanion'] } },
    // .ci/run asks for a JSON report (VITEST_JSON) to print a plain "N passed, N failed" line.
    reporters: process.env.VITEST_JSON ? ['default', 'json'] : ['default'],
    ...(process.env.VITEST_JSON ? { outputFile: { json: process.env.VITEST_JSON } } : {}),
  },
})

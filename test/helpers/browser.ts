// A real browser for e2e tests and the browser benchmark: Debian's Chromium (`/usr/bin/chromium`,
// or CHROMIUM_PATH) driven by playwright-core, headless, with a fresh profile per launch. When
// the browser cannot start, launchBrowser throws with the reason and what to install: a test
// that needs a browser fails, it never skips.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core'
import { repoRoot } from './daemon.js'

export const chromiumCandidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser']

export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH
  if (configured) return configured
  return chromiumCandidates.find((path) => existsSync(path)) ?? chromiumCandidates[0]!
}

/** Where failure screenshots go (git-ignored with .tmp/); CI keeps the directory as an artefact. */
export const artifactsDir = join(repoRoot, '.tmp', 'e2e-artifacts')

export interface TestBrowser {
  readonly context: BrowserContext
  close(): Promise<void>
}

export async function launchBrowser(): Promise<TestBrowser> {
  const executablePath = chromiumPath()
  if (!existsSync(executablePath)) {
    throw new Error(`cannot start a browser: ${executablePath} does not exist. Install Debian's chromium (apt-get install -y chromium; scripts/system-packages.json lists it) or set CHROMIUM_PATH.`)
  }
  const profile = await mkdtemp(join(tmpdir(), 'ma-chromium-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      viewport: { width: 1280, height: 860 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
        // Headless tabs are never "visible": keep timers and media at full speed.
        '--autoplay-policy=no-user-gesture-required', '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows'],
      timeout: 60_000,
    })
  } catch (error) {
    await rm(profile, { recursive: true, force: true })
    throw new Error(`cannot start a browser (${executablePath}) through playwright-core: ${(error as Error).message}`)
  }
  return {
    context,
    async close() {
      await context.close().catch(() => {})
      await rm(profile, { recursive: true, force: true })
    },
  }
}

export interface ConsoleEntry {
  type: string
  text: string
  url: string
}

/** Collects console messages and uncaught page errors of a page. */
export function watchConsole(page: Page): ConsoleEntry[] {
  const entries: ConsoleEntry[] = []
  page.on('console', (message: ConsoleMessage) => entries.push({ type: message.type(), text: message.text(), url: message.location().url }))
  page.on('pageerror', (error) => entries.push({ type: 'pageerror', text: `${error.name}: ${error.message}`, url: '' }))
  return entries
}

/** Saves a full-page PNG under .tmp/e2e-artifacts and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true })
  const path = join(artifactsDir, `${name.replace(/[^\w.-]+/g, '-').slice(0, 120)}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

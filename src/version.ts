import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

// Read once from package.json so there is a single source of the agent version (protocol.md 0).
const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }

export const agentVersion: string = packageJson.version
export const userAgent = `media-agent/${agentVersion}`

/** The directory holding package.json and dist/ of the version running now (protocol.md 7.5). */
export const packageRoot: string = fileURLToPath(new URL('..', import.meta.url))

import { loadConfig, type LoadedConfig } from '../config/load.js'
import { isAgentError } from '../errors.js'

/** Loads the config for a command; a config error is printed as is and becomes exit code 78. */
export async function loadConfigForCli(path: string | undefined, stderr: NodeJS.WritableStream): Promise<LoadedConfig | number> {
  try {
    return await loadConfig({ ...(path ? { path } : {}), env: process.env })
  } catch (error) {
    if (isAgentError(error)) {
      stderr.write(`media-agent: ${error.message}\n`)
      return 78 // EX_CONFIG (sysexits.h)
    }
    throw error
  }
}

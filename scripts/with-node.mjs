#!/usr/bin/env node
// `node scripts/with-node.mjs <command> [args...]`: runs the command under a supported Node
// (scripts/node-runtime.mjs). The npm scripts of the README's two commands go through it, so
// `npm start` and `npm test` work on a machine whose system Node is older; with a supported Node
// it just runs the command. Signals reach the command; its exit code is ours.
import { spawn } from 'node:child_process'
import { envWith, root, supportedNodeBin } from './node-runtime.mjs'

const [command, ...args] = process.argv.slice(2)
if (command === undefined) {
  process.stderr.write('usage: node scripts/with-node.mjs <command> [args...]\n')
  process.exit(2)
}
const bin = supportedNodeBin()
if (bin !== undefined) process.stderr.write(`[setup] running \`${[command, ...args].join(' ')}\` under the Node.js in .tmp/node (the system's is ${process.version})\n`)
const child = spawn(command, args, { cwd: process.cwd() || root, env: envWith(bin), stdio: 'inherit' })
// Ctrl-C reaches the whole process group already; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('error', (error) => {
  process.stderr.write(`[setup] cannot run ${command}: ${error.message}\n`)
  process.exit(1)
})
child.on('exit', (code, signal) => {
  if (signal !== null) {
    // Die of the same signal, as a shell would report it.
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
  }
  else process.exit(code ?? 1)
})

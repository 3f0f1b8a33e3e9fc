// Whether output may carry colour escapes (issue 18 "output hygiene"): only to a terminal, and
// never with NO_COLOR set (https://no-color.org: any non-empty value) or TERM=dumb. Used for the
// CLI's help and errors and for the readable log format.

export function colorWanted(stream: { isTTY?: boolean } | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.TERM === 'dumb') return false
  return stream?.isTTY === true
}

// Version floors (contract section 9): the server gates agents on MIN_AGENT_VERSION with a
// semver comparison, pre-releases ordering below their release (0.14.0-dev < 0.14.0).

interface ParsedVersion {
  core: [number, number, number]
  prerelease: string[]
}

const pattern = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/

export function parseVersion(text: string): ParsedVersion | undefined {
  const match = pattern.exec(text.trim())
  if (!match) return undefined
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    prerelease: match[4] === undefined ? [] : match[4].split('.'),
  }
}

function compareIdentifiers(a: string, b: string): number {
  const aNumeric = /^\d+$/.test(a)
  const bNumeric = /^\d+$/.test(b)
  if (aNumeric && bNumeric) return Math.sign(Number(a) - Number(b))
  if (aNumeric) return -1
  if (bNumeric) return 1
  return a < b ? -1 : a > b ? 1 : 0
}

/** -1, 0 or 1; undefined when either side is not a semantic version. */
export function compareVersions(a: string, b: string): number | undefined {
  const left = parseVersion(a)
  const right = parseVersion(b)
  if (!left || !right) return undefined
  for (let i = 0; i < 3; i += 1) {
    const diff = Math.sign(left.core[i]! - right.core[i]!)
    if (diff !== 0) return diff
  }
  if (left.prerelease.length === 0 || right.prerelease.length === 0) {
    return Math.sign(right.prerelease.length - left.prerelease.length)
  }
  const length = Math.max(left.prerelease.length, right.prerelease.length)
  for (let i = 0; i < length; i += 1) {
    const l = left.prerelease[i]
    const r = right.prerelease[i]
    if (l === undefined) return -1
    if (r === undefined) return 1
    const diff = compareIdentifiers(l, r)
    if (diff !== 0) return diff
  }
  return 0
}

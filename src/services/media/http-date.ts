// HTTP-date (RFC 9110 5.6.7): the three forms a recipient must accept, nothing else. Date.parse
// would read "1" or "2020" as dates and turn garbage in If-Modified-Since into a 304.

const months: Record<string, number> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 }

// IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
const imfFixdate = /^[A-Za-z]{3}, (\d{2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/
// obsolete RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
const rfc850 = /^[A-Za-z]{6,9}, (\d{2})-([A-Za-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/
// obsolete asctime: Sun Nov  6 08:49:37 1994
const asctime = /^[A-Za-z]{3} ([A-Za-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/

function build(year: number, month: string, day: number, h: number, m: number, s: number): Date | undefined {
  const monthIndex = months[month.toLowerCase()]
  if (monthIndex === undefined || day < 1 || day > 31 || h > 23 || m > 59 || s > 60) return undefined
  const ms = Date.UTC(year, monthIndex, day, h, m, Math.min(s, 59))
  return Number.isNaN(ms) ? undefined : new Date(ms)
}

/** A Date for a valid HTTP-date, undefined for anything else (never throws). */
export function parseHttpDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined
  const text = value.trim()
  let match = imfFixdate.exec(text)
  if (match !== null) return build(Number(match[3]), match[2]!, Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6]))
  match = rfc850.exec(text)
  if (match !== null) {
    // RFC 9110: a two-digit year more than 50 years in the future is in the past century.
    const yy = Number(match[3])
    const year = yy + 2000 > new Date().getUTCFullYear() + 50 ? 1900 + yy : 2000 + yy
    return build(year, match[2]!, Number(match[1]), Number(match[4]), Number(match[5]), Number(match[6]))
  }
  match = asctime.exec(text)
  if (match !== null) return build(Number(match[6]), match[1]!, Number(match[2]!.trim()), Number(match[3]), Number(match[4]), Number(match[5]))
  return undefined
}

export function formatHttpDate(date: Date): string {
  return date.toUTCString()
}

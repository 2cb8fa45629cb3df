export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>

// Two character searches: cheaper than a regular expression on every header of every response.
const hasLineBreak = (text: string): boolean => text.includes("\n") || text.includes("\r")

/**
 * Header lines joined as `\r\nname: value...`. A name or value with a line break would forge
 * headers: refused.
 */
export const joinHeaders = (headers: HeaderList): string => {
  let joined = ""
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i]!
    if (hasLineBreak(name) || hasLineBreak(value)) throw new Error(`header ${JSON.stringify(name)} has a line break`)
    joined += `\r\n${name}: ${value}`
  }
  return joined
}

/**
 * Response headers joined once and checked (`joinHeaders`), which the transport writes as they are:
 * for headers that are the same on many answers (a route's fixed headers), and for per-request
 * headers made from checked lines and numbers (`numbered`), which need no check per request.
 */
export class HeaderLines {
  private constructor(readonly text: string) {}

  static readonly empty = new HeaderLines("")

  /** `headers` joined (and checked) unless they already are. */
  static of(headers: HeaderList | HeaderLines): HeaderLines {
    return headers instanceof HeaderLines ? headers : new HeaderLines(joinHeaders(headers))
  }

  /**
   * `before`, then `name: <number>`, then `after`, checked and joined once: per answer only the
   * number goes between the two parts (a number holds no line break).
   */
  static numbered(before: HeaderLines, name: string, after: HeaderLines): (value: number) => HeaderLines {
    if (hasLineBreak(name)) throw new Error(`header ${JSON.stringify(name)} has a line break`)
    const head = `${before.text}\r\n${name}: `
    const tail = after.text
    return (value) => new HeaderLines(head + value + tail)
  }
}

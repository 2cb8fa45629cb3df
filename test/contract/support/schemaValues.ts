import { deref, type OpenApiDocument } from "./openApiDocument.ts"
import type { Prng } from "./prng.ts"

/**
 * A value that satisfies a JSON Schema (the subset the document uses), drawn with `random`. Where
 * the fixtures know real values for a property or parameter name (vault addresses, wallets, codes),
 * they are used for strings, so that valid requests reach data rather than 404s.
 */
export const valueFor = (
  document: OpenApiDocument,
  schema: any,
  random: Prng,
  known: Readonly<Record<string, ReadonlyArray<unknown>>>,
  name?: string,
  depth = 0
): unknown => {
  const node = deref(document, schema ?? {})
  if (name !== undefined && known[name] !== undefined && known[name]!.length > 0) return random.pick(known[name]!)
  if (node === true || node === null || typeof node !== "object") return "x"
  if ("const" in node) return node.const
  if (Array.isArray(node.enum)) return random.pick(node.enum)
  const alternatives = node.anyOf ?? node.oneOf
  if (Array.isArray(alternatives)) return valueFor(document, random.pick(alternatives), random, known, name, depth + 1)
  if (Array.isArray(node.allOf)) {
    const parts = node.allOf.map((part: any) => valueFor(document, part, random, known, name, depth + 1))
    return parts.every((part: unknown) => part !== null && typeof part === "object" && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0]
  }
  const type = Array.isArray(node.type) ? random.pick(node.type.filter((t: string) => t !== "null").length > 0 ? node.type.filter((t: string) => t !== "null") : node.type) : node.type
  switch (type) {
    case "null":
      return null
    case "boolean":
      return random.chance(0.5)
    case "integer":
    case "number": {
      const min = node.minimum ?? (node.exclusiveMinimum === undefined ? 0 : node.exclusiveMinimum + 1)
      const max = node.maximum ?? (node.exclusiveMaximum === undefined ? min + 1000 : node.exclusiveMaximum - 1)
      return random.int(Math.ceil(min), Math.floor(max))
    }
    case "array": {
      const min = node.minItems ?? 0
      const max = Math.min(node.maxItems ?? min + 3, min + 3)
      const count = depth > 4 ? min : random.int(min, max)
      const items = Array.from({ length: count }, () => valueFor(document, node.items ?? {}, random, known, undefined, depth + 1))
      return node.uniqueItems === true ? [...new Map(items.map((item) => [JSON.stringify(item), item])).values()] : items
    }
    case "object": {
      const out: Record<string, unknown> = {}
      const required: ReadonlyArray<string> = node.required ?? []
      for (const [property, inner] of Object.entries<any>(node.properties ?? {})) {
        if (required.includes(property) || (depth < 4 && random.chance(0.5))) out[property] = valueFor(document, inner, random, known, property, depth + 1)
      }
      return out
    }
    case "string":
      return stringFor(node, random)
    default:
      return node.properties !== undefined ? valueFor(document, { ...node, type: "object" }, random, known, name, depth) : "x"
  }
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

const stringFor = (node: any, random: Prng): string => {
  if (node.format === "date") return new Date(Date.UTC(2026, 0, 1) + random.int(0, 400) * 86_400_000).toISOString().slice(0, 10)
  if (node.format === "date-time") return new Date(Date.UTC(2026, 0, 1) + random.int(0, 400) * 86_400_000).toISOString()
  if (typeof node.pattern === "string") {
    const simple = /^\^\[([^\]]+)\](?:\{(\d+)(?:,(\d+))?\}|\+|\*)\$$/.exec(node.pattern)
    if (simple !== null) {
      const chars = expandClass(simple[1]!)
      const min = simple[2] === undefined ? 1 : Number(simple[2])
      const max = simple[3] === undefined ? (simple[2] === undefined ? 12 : min) : Number(simple[3])
      return Array.from({ length: random.int(min, Math.min(max, min + 40)) }, () => random.pick(chars)).join("")
    }
    if (node.pattern === "^\\d+$" || node.pattern === "^[0-9]+$") return String(random.int(0, 1_000_000))
  }
  const min = node.minLength ?? 1
  const max = Math.min(node.maxLength ?? min + 12, min + 40)
  return Array.from({ length: random.int(min, max) }, () => random.pick([...ALPHABET])).join("")
}

const expandClass = (spec: string): Array<string> => {
  const out: Array<string> = []
  for (let i = 0; i < spec.length; i++) {
    const from = spec[i]!
    if (from === "\\" && i + 1 < spec.length) {
      const escaped = spec[++i]!
      out.push(...(escaped === "d" ? [..."0123456789"] : escaped === "w" ? [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"] : [escaped]))
    } else if (spec[i + 1] === "-" && i + 2 < spec.length) {
      for (let code = from.charCodeAt(0); code <= spec.charCodeAt(i + 2); code++) out.push(String.fromCharCode(code))
      i += 2
    } else {
      out.push(from)
    }
  }
  return out.length === 0 ? ["a"] : out
}

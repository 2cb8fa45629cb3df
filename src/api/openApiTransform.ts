/**
 * `HttpApi.make` declares `HttpApiDecodeError` (400) on every API; this service decodes requests in
 * its own transport and answers bad input with `BadRequest`, so the document drops that schema and
 * any component only it used. It also drops the `$id` Effect puts on every `Schema.Unknown`.
 */
export const withoutHttpApiDecodeError = (spec: Record<string, any>): Record<string, any> => {
  const decodeErrorRef = "#/components/schemas/HttpApiDecodeError"
  const prune = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(prune)
    if (value === null || typeof value !== "object") return value
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      // Schema.Unknown carries `$id: "/schemas/unknown"` wherever it is used: a repeated `$id` makes
      // the document invalid JSON Schema, and the schema means "anything" without it
      if (key === "$id" && inner === "/schemas/unknown") continue
      out[key] = prune(inner)
    }
    if (Array.isArray(out.anyOf)) {
      const anyOf = (out.anyOf as Array<any>).filter((member) => member?.$ref !== decodeErrorRef)
      if (anyOf.length === 1) {
        const { anyOf: _, ...rest } = out
        return { ...rest, ...anyOf[0] }
      }
      out.anyOf = anyOf
    }
    return out
  }
  const pruned = prune(spec) as Record<string, any>
  const schemas: Record<string, unknown> = { ...pruned.components?.schemas }
  delete schemas.HttpApiDecodeError
  // Keep the component schemas still reachable from the operations.
  const reachable = new Set<string>()
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (value === null || typeof value !== "object") return
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/components/schemas/")) {
        const name = inner.slice("#/components/schemas/".length)
        if (!reachable.has(name)) {
          reachable.add(name)
          visit(schemas[name])
        }
      } else {
        visit(inner)
      }
    }
  }
  visit(pruned.paths)
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => reachable.has(name)))
  return { ...pruned, components: { ...pruned.components, schemas: kept } }
}

/**
 * uWebSockets.js answers a header block of about 64 KB or more itself, before any route runs: a 431
 * with a small HTML page instead of the envelope. The document says so on every 431.
 */
export const withTransportHeaderAnswer = (spec: Record<string, any>): Record<string, any> => {
  const paths: Record<string, any> = {}
  for (const [path, item] of Object.entries<Record<string, any>>(spec.paths ?? {})) {
    paths[path] = Object.fromEntries(Object.entries(item).map(([method, operation]) => {
      const tooLarge = operation?.responses?.["431"]
      if (tooLarge === undefined) return [method, operation]
      const html = {
        schema: { type: "string", description: "uWebSockets.js's own page, for header blocks of about 64 KB or more" }
      }
      return [method, { ...operation, responses: { ...operation.responses, "431": { ...tooLarge, content: { ...tooLarge.content, "text/html": html } } } }]
    }))
  }
  return { ...spec, paths }
}

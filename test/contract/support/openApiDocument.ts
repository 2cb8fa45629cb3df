/** The parts of an OpenAPI 3.1 document the contract checker walks. */
export interface OpenApiDocument {
  readonly openapi: string
  readonly paths: Record<string, Record<string, any>>
  readonly components?: Record<string, any>
  readonly security?: ReadonlyArray<Record<string, ReadonlyArray<string>>>
}

export interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header" | "cookie"
  readonly required: boolean
  readonly schema: any
}

export interface Operation {
  readonly id: string
  readonly method: string
  /** The templated path, e.g. `/v2/vault/{vaultAddress}`. */
  readonly path: string
  readonly parameters: ReadonlyArray<Parameter>
  /** Content type -> schema of the request body, when the operation takes one. */
  readonly body: { readonly required: boolean; readonly content: Record<string, any> } | null
  /** Status (or `default`) -> response object (with `content`). */
  readonly responses: Record<string, any>
  /** Security scheme names that satisfy the operation (empty: public). */
  readonly security: ReadonlyArray<string>
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]

/** Follows `#/...` references inside the document until a non-reference value. */
export const deref = (document: OpenApiDocument, value: any): any => {
  let current = value
  for (let hops = 0; current !== null && typeof current === "object" && typeof current.$ref === "string"; hops++) {
    if (hops > 32) throw new Error(`reference cycle at ${value.$ref}`)
    current = resolvePointer(document, current.$ref)
  }
  return current
}

export const resolvePointer = (document: OpenApiDocument, ref: string): any => {
  if (!ref.startsWith("#/")) throw new Error(`only local references are supported: ${ref}`)
  return ref.slice(2).split("/").reduce<any>((node, raw) => {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~")
    if (node === null || typeof node !== "object" || !(key in node)) throw new Error(`unresolved reference ${ref}`)
    return node[key]
  }, document)
}

/** Every operation of the document, path-level parameters merged, references resolved. */
export const operationsOf = (document: OpenApiDocument): ReadonlyArray<Operation> =>
  Object.entries(document.paths).flatMap(([path, item]) => {
    const shared: Array<any> = (item.parameters ?? []).map((parameter: any) => deref(document, parameter))
    return METHODS.filter((method) => item[method] !== undefined).map((method): Operation => {
      const operation = item[method]
      const own: Array<any> = (operation.parameters ?? []).map((parameter: any) => deref(document, parameter))
      const merged = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own]
      const body = operation.requestBody === undefined ? null : deref(document, operation.requestBody)
      const security: ReadonlyArray<Record<string, unknown>> = operation.security ?? document.security ?? []
      return {
        id: operation.operationId ?? `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: merged.map((p) => ({ name: p.name, in: p.in, required: p.required === true, schema: p.schema ?? {} })),
        body: body === null ? null : { required: body.required === true, content: body.content ?? {} },
        responses: Object.fromEntries(Object.entries(operation.responses ?? {}).map(([status, response]) => [status, deref(document, response)])),
        security: security.flatMap((requirement) => Object.keys(requirement))
      }
    })
  })

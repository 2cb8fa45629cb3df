import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { deref, type OpenApiDocument, type Operation } from "./openApiDocument.ts"

export interface Answer {
  readonly status: number
  readonly contentType: string | null
  readonly retryAfter: string | null
  readonly text: string
  /** Response header by name (lower case), null when absent. */
  readonly header?: (name: string) => string | null
}

/**
 * The media type of an unlabeled body, sniffed as RFC 9110 §8.3 allows (uWebSockets.js's own 431
 * page has no Content-Type): JSON or HTML; anything else stays unknown and fails the check.
 */
const sniff = (text: string): string => {
  try {
    JSON.parse(text)
    return "application/json"
  } catch {
    return /^\s*<(!doctype html|html|h1|head|body|p)\b/i.test(text) ? "text/html" : "(none)"
  }
}

const DOCUMENT_ID = "urn:vault-gateway:contract:openapi"

const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1")

/**
 * Checks answers against the document: the status is one the operation lists (or `default`), the
 * body matches the schema documented for that status and content type (ajv, JSON Schema 2020-12),
 * and no answer is a 5xx other than a documented 503 with `Retry-After`. Validators are compiled
 * once per (operation, status, content type).
 */
export const makeResponseChecker = (document: OpenApiDocument) => {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false })
  addFormats.default(ajv)
  ajv.addSchema({ ...document, $id: DOCUMENT_ID } as object)
  const compiled = new Map<string, ValidateFunction>()

  /** The JSON pointer of an operation's response object, through a `$ref` to `components/responses`. */
  const responsePointer = (operation: Operation, status: string): string => {
    let pointer = `/paths/${escape(operation.path)}/${operation.method.toLowerCase()}/responses/${escape(status)}`
    let node = document.paths[operation.path]![operation.method.toLowerCase()].responses[status]
    while (node !== null && typeof node === "object" && typeof node.$ref === "string") {
      pointer = node.$ref.slice(1)
      node = pointer.split("/").slice(1).reduce<any>((inner, key) => inner[key.replace(/~1/g, "/").replace(/~0/g, "~")], document)
    }
    return pointer
  }

  const validatorFor = (operation: Operation, status: string, contentType: string): ValidateFunction => {
    const key = `${operation.id} ${status} ${contentType}`
    let validate = compiled.get(key)
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${responsePointer(operation, status)}/content/${escape(contentType)}/schema` })
      compiled.set(key, validate)
    }
    return validate
  }

  /** Why the answer contradicts the document, or null when it agrees. */
  return (operation: Operation, answer: Answer): string | null => {
    const status = String(answer.status)
    const documentedKey = status in operation.responses ? status : `${status[0]}XX` in operation.responses ? `${status[0]}XX` : "default" in operation.responses ? "default" : null
    if (answer.status >= 500 && !(answer.status === 503 && documentedKey !== null && answer.retryAfter !== null)) {
      return answer.status === 503 ? `503 without Retry-After or not documented` : `server error ${status}`
    }
    if (documentedKey === null) return `status ${status} is not documented for ${operation.id} (documented: ${Object.keys(operation.responses).join(", ")})`
    for (const [name, declared] of Object.entries<any>(operation.responses[documentedKey].headers ?? {})) {
      const header = declared?.$ref === undefined ? declared : deref(document, declared)
      if (header?.required === true && answer.header !== undefined && answer.header(name.toLowerCase()) === null) {
        return `${status} lacks the header ${name} the document requires`
      }
    }
    const content: Record<string, any> | undefined = operation.responses[documentedKey].content
    if (content === undefined || Object.keys(content).length === 0) return null
    const mediaType = answer.contentType === null ? sniff(answer.text) : answer.contentType.split(";")[0]!.trim().toLowerCase()
    if (!(mediaType in content)) return `content type "${answer.contentType}" is not documented for ${status} (documented: ${Object.keys(content).join(", ")})`
    if (!/^application\/(.+\+)?json$/.test(mediaType)) return null
    let body: unknown
    try {
      body = JSON.parse(answer.text)
    } catch {
      return `body of ${status} is not JSON`
    }
    const validate = validatorFor(operation, documentedKey, mediaType)
    if (validate(body)) return null
    return `body of ${status} does not match the documented schema: ${ajv.errorsText(validate.errors, { separator: "; " })}`
  }
}

import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript"
import { Api } from "../src/api/Api.ts"
import { openApiDocument } from "../src/api/docs.ts"

const HEADER = `${COMMENT_HEADER}// Regenerate with \`npm run gen:client\` (scripts/gen-client.ts), from the document \`/openapi.json\` serves.\n\n`

/**
 * The TypeScript types of the API's OpenAPI document (`paths`, `components`, `operations`), as
 * openapi-typescript writes them: what the fetch client (`vault-gateway/fetch-client`) is typed with.
 */
export const renderOpenApiTypes = async (): Promise<string> => {
  const ast = await openapiTS(openApiDocument(Api) as unknown as OpenAPI3, { silent: true })
  return HEADER + astToString(ast)
}

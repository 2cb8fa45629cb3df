import { Schema, SchemaAST as AST } from "effect"

type Project = (value: any) => unknown

const identity: Project = (value) => value

/**
 * The projection of a value onto a schema whose encoded side equals its type side (structs of
 * strings, numbers, booleans, literals, arrays, nullable members; refinements and brands), compiled
 * from the AST: declared keys only, in declaration order, as `Schema.encodeSync` would produce them,
 * without re-running the refinements. Null when the schema holds anything else (a transformation,
 * an index signature, a union of several structs...).
 */
const compile = (ast: AST.AST): Project | null => {
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "Literal":
    case "Enums":
    case "TemplateLiteral":
      return identity
    case "Refinement":
      return compile(ast.from)
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0) return null
      const fields: Array<readonly [string, Project, boolean]> = []
      for (const property of ast.propertySignatures) {
        const project = compile(property.type)
        if (project === null || typeof property.name !== "string") return null
        fields.push([property.name, project, property.isOptional])
      }
      return (value) => {
        const out: Record<string, unknown> = {}
        for (const [name, project, optional] of fields) {
          if (optional && !(name in value)) continue
          out[name] = project(value[name])
        }
        return out
      }
    }
    case "TupleType": {
      if (ast.elements.length > 0 || ast.rest.length !== 1) return null
      const project = compile(ast.rest[0]!.type)
      if (project === null) return null
      return (value: ReadonlyArray<unknown>) => value.map(project)
    }
    case "Union": {
      // Literal members (null among them) pass as they are; at most one other member.
      const others = ast.types.filter((member) => member._tag !== "Literal")
      if (others.length === 0) return identity
      if (others.length > 1) return null
      const project = compile(others[0]!)
      if (project === null) return null
      return project === identity ? identity : (value) => (value === null || typeof value !== "object" ? value : project(value))
    }
    default:
      return null
  }
}

/**
 * `(value) => encoded` for a success schema, for the stream's hot path: the compiled projection when
 * the schema allows it (values built by our own typed code, so the refinements hold), otherwise
 * `Schema.encodeSync`. Same output either way.
 */
export const shapeEncoder = <A, I>(schema: Schema.Schema<A, I>): ((value: A) => I) => {
  const compiled = compile(schema.ast)
  return compiled === null ? Schema.encodeSync(schema) : (compiled as (value: A) => I)
}

/** Whether `shapeEncoder` compiles the schema (tests). */
export const isShapeCompiled = (schema: Schema.Schema.Any): boolean => compile(schema.ast) !== null

// The layout rules of DESIGN.md §3, checked by test/architecture/dependencyRules.test.ts.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "modules must not import each other in a cycle",
      from: {},
      to: { circular: true }
    },
    {
      name: "src-not-to-layers",
      severity: "error",
      comment: "src/ is pure code and the app; only the composition roots (src/commands, src/bench) pick adapters",
      from: { path: "^src/", pathNot: "^src/(commands|bench)/" },
      to: { path: "^layers/" }
    },
    {
      name: "services-not-to-layers",
      severity: "error",
      comment: "services/ declares ports; adapters implement them, never the other way round",
      from: { path: "^services/" },
      to: { path: "^layers/" }
    },
    {
      name: "layers-not-across",
      severity: "error",
      comment: "an adapter folder meets the others through ports only",
      from: { path: "^layers/([^/]+)/" },
      to: { path: "^layers/", pathNot: "^layers/$1/" }
    },
    {
      name: "server-not-to-web-client",
      severity: "error",
      comment: "src/web is browser code bundled by esbuild; the server reads only its manifest (src/web/pages.ts)",
      from: { pathNot: "^(src/web/|test/)" },
      to: { path: "^src/web/", pathNot: "^src/web/pages[.]ts$" }
    },
    {
      name: "web-client-only-browser-code",
      severity: "error",
      comment: "browser code imports browser code, the generated API types and npm packages, never the server",
      from: { path: "^src/web/", pathNot: "^src/web/pages[.]ts$" },
      to: { pathNot: "^(src/web/|src/client/openapi[.]ts$|node_modules/)", dependencyTypesNot: ["core"] }
    },
    {
      name: "shipped-not-to-test",
      severity: "error",
      comment: "nothing shipped imports test code",
      from: { pathNot: "^test/" },
      to: { path: "^test/" }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".json"] }
  }
}

#!/usr/bin/env node
// Runs the TypeScript sources, compiled at start (see buildSources.js), so there is no build step.
import { buildSources } from "./buildSources.js"

// Stack traces name the TypeScript sources.
process.setSourceMapsEnabled(true)
await import(await buildSources("src/cli.ts"))

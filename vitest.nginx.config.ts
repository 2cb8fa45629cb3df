import { defineConfig } from "vitest/config"

/** Several gateways behind a real nginx (`npm run test:nginx`; Debian's nginx package). */
export default defineConfig({
  test: {
    include: ["test/ops/**/*.nginx.test.ts"],
    testTimeout: 240_000,
    hookTimeout: 300_000,
    pool: "forks"
  }
})

import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/ops needs third-party servers: `npm run test:prometheus` runs it
    exclude: ["node_modules/**", "test/ops/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks"
  }
})

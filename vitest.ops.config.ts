import { defineConfig } from "vitest/config"

/** Tests that need a third-party server installed on the machine (`npm run test:prometheus`). */
export default defineConfig({
  test: {
    include: ["test/ops/**/*.ops.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks"
  }
})

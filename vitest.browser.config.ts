import { defineConfig } from "vitest/config"

/** Tests in a real browser (Debian's Chromium driven by playwright-core): `npm run test:browser`. */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: "forks"
  }
})

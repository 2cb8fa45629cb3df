import { defineConfig } from "vitest/config"

// Effect's default logger in the tests' own processes: routine INFO and DEBUG lines are not test
// results, so `npm test` leaves them out; warnings and errors still show.
const ROUTINE_LOG = /^timestamp=\S+ level=(INFO|DEBUG|TRACE) /

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/ops and test/browser need third-party programs: `npm run test:prometheus`, `npm run test:browser`
    exclude: ["node_modules/**", "test/ops/**", "test/browser/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    onConsoleLog: (log) => (ROUTINE_LOG.test(log) ? false : undefined)
  }
})

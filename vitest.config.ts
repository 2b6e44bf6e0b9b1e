import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/oracle/**/*.test.ts', 'test/fuzz/**/*.test.ts', 'test/scenarios/**/*.test.ts'],
    // Failure backstops only, never a budget: on a loaded 2-core machine a heavy hook (a recorded
    // CLI run, a bundle build) can take many times what it takes alone. Tests wait on state.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    pool: 'threads',
  },
});

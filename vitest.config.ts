import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/oracle/**/*.test.ts', 'test/fuzz/**/*.test.ts', 'test/scenarios/**/*.test.ts'],
    testTimeout: 120_000,
    pool: 'threads',
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn the built binary; the machine has two cores.
    maxWorkers: 2,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-artifacts/vitest.json' },
  },
});

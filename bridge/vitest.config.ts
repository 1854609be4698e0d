import { defineConfig } from 'vitest/config';

/** The bridge's own unit tests (`npm test` in bridge/); the root's `npx vitest run` runs them too. */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
  },
});

import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [preact()],
  test: {
    include: [
      'lib/**/*.test.ts',
      'components/**/*.test.{ts,tsx}',
      'tests/servers/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bridge/src/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 30_000,
    // Two cores: keep the pool small so engine tests are not starved.
    maxWorkers: 2,
  },
});

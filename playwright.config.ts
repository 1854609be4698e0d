import { defineConfig } from '@playwright/test';

/**
 * Chromium E2E with the built extension (.output/chrome-mv3). Two projects: the polyfilled path (no native
 * WebMCP) and native WebMCP (--enable-features=WebMCP). A third, `reference`, runs only the WebMCP conformance
 * suite in native Chromium without the extension: what the other two must match (docs/webmcp-conformance.md).
 * One worker: two cores. The worker keeps one browser per project and resets it between tests; a test that needs
 * a new profile gets its own (tests/e2e/fixtures.ts, docs/testing.md). The JSON report feeds the summary that
 * `npm test` prints (scripts/run-tests.ts).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-reports/e2e.json' }]],
  projects: [
    { name: 'polyfill', use: { nativeWebMCP: false } as any },
    { name: 'native', use: { nativeWebMCP: true } as any },
    { name: 'reference', testMatch: /webmcp-conformance(-[a-z-]+)?\.spec\.ts$/, use: { nativeWebMCP: true, withExtension: false } as any },
  ],
});

import { defineConfig } from '@playwright/test';

/**
 * Chromium E2E with the built extension (.output/chrome-mv3). Two projects: the polyfilled path (no native
 * WebMCP) and native WebMCP (--enable-features=WebMCP). A third, `reference`, runs only the WebMCP conformance
 * suite in native Chromium without the extension: what the other two must match (docs/webmcp-conformance.md).
 * Two workers on two cores: the E2E mostly waits (on browsers, pages, the service worker), so a second browser nearly
 * halves its wall time. The specs that run the on-device model compute instead: they are the `on-device` project,
 * one worker at most, so two models never run side by side (the other worker runs other specs meanwhile). Each
 * worker keeps one browser per project and resets it between tests; a test that needs a new profile gets its own
 * (tests/e2e/fixtures.ts, docs/testing.md). The JSON report feeds the summary that `npm test` prints
 * (scripts/run-tests.ts).
 */

/** The specs that run the on-device model (the real engine, CPU-bound): the `on-device` project. */
const ON_DEVICE = /(local-[a-z-]+|sidepanel-local)\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-reports/e2e.json' }]],
  projects: [
    { name: 'polyfill', testIgnore: ON_DEVICE, use: { nativeWebMCP: false } as any },
    { name: 'native', testIgnore: ON_DEVICE, use: { nativeWebMCP: true } as any },
    { name: 'reference', testMatch: /webmcp-conformance(-[a-z-]+)?\.spec\.ts$/, use: { nativeWebMCP: true, withExtension: false } as any },
    // The on-device specs without native WebMCP, as `polyfill`; the one of them that also runs with native WebMCP
    // (the others skip there) runs after them, so that it never runs beside one of them either.
    { name: 'on-device', testMatch: ON_DEVICE, workers: 1, use: { nativeWebMCP: false } as any },
    {
      name: 'on-device-native',
      testMatch: /sidepanel-local\.spec\.ts$/,
      workers: 1,
      dependencies: ['on-device'],
      use: { nativeWebMCP: true } as any,
    },
  ],
});

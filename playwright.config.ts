import { defineConfig } from '@playwright/test';

/**
 * Chromium E2E with the built extension (.output/chrome-mv3). Two projects: the polyfilled path (no native
 * WebMCP) and native WebMCP (--enable-features=WebMCP). A third, `reference`, runs only the WebMCP conformance
 * suite in native Chromium without the extension: what the other two must match (docs/webmcp-conformance.md).
 * One worker: two cores, and each test owns a browser.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  projects: [
    { name: 'polyfill', use: { nativeWebMCP: false } as any },
    { name: 'native', use: { nativeWebMCP: true } as any },
    { name: 'reference', testMatch: /webmcp-conformance(-[a-z-]+)?\.spec\.ts$/, use: { nativeWebMCP: true, withExtension: false } as any },
  ],
});

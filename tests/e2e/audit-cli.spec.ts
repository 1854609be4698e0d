import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { type StaticServer, startStaticServer } from '../servers/static-server';

/** Runs the audit as a site author's CI would (`npm run audit -- …`), and collects what it prints and how it exits. */
function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', 'scripts/audit.ts', '--no-build', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

test.describe.configure({ timeout: 240_000 });

let pages: StaticServer;
test.beforeAll(async () => {
  pages = await startStaticServer({ '/': 'tests/fixtures/pages' });
});
test.afterAll(async () => {
  await pages.close();
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a test's fixtures from this pattern; these need none.
test('npm run audit passes the demo shop: its findings printed, exit 0', async ({}, testInfo) => {
  test.skip(testInfo.project.name === 'native', 'The CLI starts its own browser; one project is enough.');
  const run = await runCli(['--url', 'demo']);
  expect(run.out).toContain('INFO    form/not-a-tool  #search-form');
  expect(run.out).toContain('5 tools in 1 frame, 2 forms, 0 results: 0 errors, 0 warnings, 1 info');
  expect(run.code).toBe(0);
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a test's fixtures from this pattern; these need none.
test('npm run audit exits 1 when a finding is above --max-severity, 0 when none is, and --json prints only the report', async ({}, testInfo) => {
  test.skip(testInfo.project.name === 'native', 'The CLI starts its own browser; one project is enough.');
  const url = `${pages.url}/audit-problems.html`;
  const report = join(mkdtempSync(join(tmpdir(), 'audit-cli-')), 'audit.json');
  const strict = await runCli(['--url', url, '--json', '--report', report]);
  const printed = JSON.parse(strict.out);
  expect(printed).toMatchObject({ format: 'webmcp-agent-audit-report', page: { url }, counts: { error: 14, warning: 19, info: 5 } });
  expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual(printed);
  expect(strict.err).toContain('33 findings are more serious than --max-severity info.');
  expect(strict.code).toBe(1);

  const errorsOnly = await runCli(['--url', url, '--max-severity', 'error']);
  expect(errorsOnly.out).toContain('ERROR   annotation/consequential-missing  book_table › annotations.consequentialHint');
  expect(errorsOnly.out).toContain('38 tools in 2 frames, 3 forms, 0 results: 14 errors, 19 warnings, 5 info');
  expect(errorsOnly.code).toBe(0);
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a test's fixtures from this pattern; these need none.
test('npm run audit tells the author of an unannotated print shop on navigator.modelContext what to fix, and says when a page has no tools', async ({}, testInfo) => {
  test.skip(testInfo.project.name === 'native', 'The CLI starts its own browser; one project is enough.');
  const shop = await runCli(['--url', `${pages.url}/print-shop.html`]);
  for (const tool of ['search_products', 'get_product_options', 'get_quote', 'track_order']) {
    expect(shop.out).toContain(`WARNING annotation/read-only-missing  ${tool} › annotations.readOnlyHint`);
  }
  expect(shop.out).not.toContain('add_to_cart › annotations.readOnlyHint');
  expect(shop.out).toContain('WARNING api/legacy-navigator  navigator.modelContext');
  expect(shop.out).toContain('5 tools are registered through navigator.modelContext, the 2025 API Chromium no longer has');
  expect(shop.out).toContain('5 tools in 1 frame, 0 forms, 0 results: 0 errors, 5 warnings, 0 info');
  expect(shop.out).not.toContain('No findings.');
  expect(shop.code).toBe(1);

  const plain = await runCli(['--url', `${pages.url}/plain.html`]);
  expect(plain.out).toContain('INFO    page/no-tools\n        This page offers agents no WebMCP tools');
  expect(plain.out).toContain('Fix: Start with the WebMCP spec (https://webmachinelearning.github.io/webmcp/)');
  expect(plain.out).toContain('0 tools in 1 frame, 0 forms, 0 results: 0 errors, 0 warnings, 1 info');
  expect(plain.out).not.toContain('No findings.');
  expect(plain.code).toBe(0);
});

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a test's fixtures from this pattern; these need none.
test('npm run audit refuses bad options with exit 2, before starting a browser', async ({}, testInfo) => {
  test.skip(testInfo.project.name === 'native', 'No browser involved.');
  const noUrl = await runCli([]);
  expect(noUrl.err).toContain('npm run audit: --url is required.');
  expect(noUrl.code).toBe(2);
  const badLevel = await runCli(['--url', 'demo', '--max-severity', 'fatal']);
  expect(badLevel.err).toContain('--max-severity must be one of error, warning, info, not "fatal".');
  expect(badLevel.code).toBe(2);
  const badUrl = await runCli(['--url', 'file:///etc/passwd']);
  expect(badUrl.err).toContain('--url must be an http(s) address or "demo"');
  expect(badUrl.code).toBe(2);
});

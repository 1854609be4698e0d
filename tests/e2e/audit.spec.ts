import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { auditProblemsOf } from '../fixtures/audit-problems';
import { expect, expectAccessible, screenshot, test } from './sidepanel-helpers';

test.describe.configure({ timeout: 120_000 });

/** The findings the Audit view lists, as [rule, tool]. */
async function listedFindings(panel: Page): Promise<[string, string][]> {
  return panel
    .locator('.finding')
    .evaluateAll((items) =>
      items.map((item) => [(item as HTMLElement).dataset.rule ?? '', (item as HTMLElement).dataset.tool ?? ''] as [string, string]),
    );
}

const sorted = (pairs: readonly [string, string][]) => [...pairs].sort((a, b) => a.join(' ').localeCompare(b.join(' ')));

test('the Audit view finds exactly the known problems of a page, in its frames and forms, and results once tools have run', async ({
  context,
  server,
  openSidePanel,
  nativeWebMCP,
}) => {
  // Chromium 156's native WebMCP drops outputSchema, so its one output-schema error is found only on the polyfill.
  const problems = auditProblemsOf(nativeWebMCP);
  const errors = nativeWebMCP ? 13 : 14;
  const page = await context.newPage();
  await page.goto(`${server.url}/audit-problems.html`);
  const panel = await openSidePanel(page);
  await panel.setViewportSize({ width: 460, height: 1000 });
  // 37 tools in the top frame (one of its forms is a tool; the polyfill leaves out the form without a description), one in the frame.
  await expect(panel.getByRole('button', { name: 'Tools (38)' })).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Audit' }).click();
  const summary = panel.locator('.audit-summary');
  await expect(summary).toHaveText(`38 tools in 2 frames, 3 forms, 0 results: ${errors} errors, 19 warnings, 5 info`);
  expect(sorted(await listedFindings(panel))).toEqual(sorted(problems));

  // Each finding says where, why and how to fix; the frame's tool says which frame.
  const parking = panel.locator('.finding[data-tool="find_parking"]');
  await expect(parking).toContainText('The parameter near has no description.');
  await expect(parking).toContainText(/In frame \d+ \(http:\/\/127\.0\.0\.1:\d+\)/);
  await expect(parking).toContainText('Why it matters:');
  await expect(parking.locator('.finding-fix')).toContainText('Give each property a "description"');
  await screenshot(panel, 'audit-findings');
  await expectAccessible(panel);

  // Results: a result over the budget, by hand, then the audit again.
  await panel.getByRole('button', { name: 'Tools (38)' }).click();
  const rules = panel.locator('.tool-inspect').filter({ has: panel.getByRole('heading', { name: 'print_rules', exact: true }) });
  await rules.locator('summary').click();
  await rules.getByRole('button', { name: 'Run print_rules' }).click();
  await expect(rules.locator('.call-result')).toContainText('Done');
  await panel.getByRole('button', { name: 'Audit' }).click();
  await panel.getByRole('button', { name: 'Audit again' }).click();
  await expect(summary).toHaveText(`38 tools in 2 frames, 3 forms, 1 result: ${errors} errors, 20 warnings, 5 info`);
  await expect(panel.locator('.finding[data-rule="result/too-long"][data-tool="print_rules"]')).toContainText(
    "A result of a call by hand was 2052 characters long; Chrome's budget is 1500.",
  );

  // The report, as the author exports it.
  const markdown = panel.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export Markdown' }).click();
  const text = readFileSync(await (await markdown).path(), 'utf8');
  expect(text).toContain('# WebMCP audit: Audit fixture: one problem per rule');
  expect(text).toContain('### `book_table`: annotation/consequential-missing');
  const json = panel.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export JSON' }).click();
  const report = JSON.parse(readFileSync(await (await json).path(), 'utf8'));
  expect(report).toMatchObject({ format: 'webmcp-agent-audit-report', counts: { error: errors, warning: 20, info: 5 } });
  expect(report.findings).toHaveLength(problems.length + 1);
});

test('What the model sees: the tools the on-device agent shows for a request, what it cuts, and what the cloud agent sends', async ({
  context,
  server,
  openSidePanel,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/audit-problems.html`);
  const panel = await openSidePanel(page);
  await panel.setViewportSize({ width: 460, height: 1000 });
  await expect(panel.getByRole('button', { name: 'Tools (38)' })).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Audit' }).click();
  await panel.getByLabel('Request').fill('Which rooms are free on Friday? I want room 120.');

  const local = panel.getByRole('region', { name: /^On-device: / });
  await expect(local.locator('.preview-figures')).toContainText(/^8 of 38 tools shown · about \d+ tokens/);
  const ranking = local.getByRole('list', { name: 'Tools ranked for this request' });
  await expect(ranking.locator('li[data-shown="yes"]')).toHaveCount(8);
  await expect(ranking.locator('li[data-shown="no"]')).toHaveCount(30);
  await expect(ranking.locator('> li').first()).toContainText('room_calendar shown');
  await expect(local.getByRole('list', { name: 'What the prompt leaves out of pick_room' })).toContainText(
    'inputSchema.properties.room.enum: the first 24 of 30 values',
  );
  await local.getByText('System prompt').click();
  await expect(local.locator('pre').first()).toContainText('You are an assistant in the browser.');

  const cloud = panel.getByRole('region', { name: 'Cloud' });
  await expect(cloud.locator('.preview-figures')).toHaveText(
    "38 tools, every one the site's agent may use (cloud models are not given a ranked few).",
  );
  await cloud.getByText('Tools', { exact: true }).click();
  await expect(cloud.locator('pre').last()).toContainText('"name": "wifi_password"');
  await expect(cloud.locator('pre').last()).toContainText('"pageName": "wifi.password"');
  await screenshot(panel, 'audit-what-the-model-sees');
  await expectAccessible(panel);
});

test('the demo shop passes the audit: nothing but its site search form, which search_products covers', async ({
  context,
  server,
  openSidePanel,
}) => {
  const shop = await context.newPage();
  await shop.goto(`${server.url}/demo/`);
  const panel = await openSidePanel(shop);
  await expect(panel.getByRole('button', { name: 'Tools (5)' })).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Audit' }).click();
  await expect(panel.locator('.audit-summary')).toHaveText('5 tools in 1 frame, 2 forms, 0 results: 0 errors, 0 warnings, 1 info');
  expect(await listedFindings(panel)).toEqual([['form/not-a-tool', '']]);

  // Its results are within the budget too: a wide search by hand (four products), then the audit again.
  await panel.getByRole('button', { name: 'Tools (5)' }).click();
  const search = panel.locator('.tool-inspect').filter({ has: panel.locator('summary code', { hasText: /^search_products$/ }) });
  await search.locator('summary').click();
  await search.getByLabel('query').fill('clothing');
  await search.getByLabel('maxResults').fill('20');
  await search.getByRole('button', { name: 'Run search_products' }).click();
  await expect(search.locator('.call-result')).toContainText('Done');
  await panel.getByRole('button', { name: 'Audit' }).click();
  await panel.getByRole('button', { name: 'Audit again' }).click();
  await expect(panel.locator('.audit-summary')).toHaveText('5 tools in 1 frame, 2 forms, 1 result: 0 errors, 0 warnings, 1 info');
});

test('an unannotated print shop on navigator.modelContext: its readers wait for the person, and browsers with native WebMCP lack its API', async ({
  context,
  server,
  openSidePanel,
  nativeWebMCP,
}) => {
  const shop = await context.newPage();
  await shop.goto(`${server.url}/print-shop.html`);
  const panel = await openSidePanel(shop);
  const summary = panel.locator('.audit-summary');
  if (nativeWebMCP) {
    // Chromium's WebMCP has no navigator.modelContext: the page's registration throws, and it offers nothing.
    await panel.getByRole('button', { name: 'Audit' }).click();
    await expect(summary).toHaveText('0 tools in 1 frame, 0 forms, 0 results: 0 errors, 0 warnings, 1 info', { timeout: 30_000 });
    expect(await listedFindings(panel)).toEqual([['page/no-tools', '']]);
    await expect(panel.locator('.finding-fix')).toContainText('registers its tools through navigator.modelContext or provideContext');
    return;
  }
  await expect(panel.getByRole('button', { name: 'Tools (5)' })).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Audit' }).click();
  await expect(summary).toHaveText('5 tools in 1 frame, 0 forms, 0 results: 0 errors, 5 warnings, 0 info');
  expect(sorted(await listedFindings(panel))).toEqual(
    sorted([
      ['annotation/read-only-missing', 'search_products'],
      ['annotation/read-only-missing', 'get_product_options'],
      ['annotation/read-only-missing', 'get_quote'],
      ['annotation/read-only-missing', 'track_order'],
      ['api/legacy-navigator', ''],
    ]),
  );
  const quote = panel.locator('.finding[data-rule="annotation/read-only-missing"][data-tool="get_quote"]');
  await expect(quote).toContainText('It looks like it only reads (“get” in the name get_quote), but it is not marked readOnlyHint.');
  await expect(quote.locator('.finding-why')).toContainText('waits for the person to press Allow');
  const legacy = panel.locator('.finding[data-rule="api/legacy-navigator"]');
  await expect(legacy).toContainText(
    '5 tools are registered through navigator.modelContext, the 2025 API Chromium no longer has: add_to_cart, get_product_options, get_quote, search_products, track_order.',
  );
  await expect(legacy).toContainText('Field: navigator.modelContext');
  await expect(legacy.locator('.finding-fix')).toContainText('document.modelContext.registerTool(tool, { signal })');
  await screenshot(panel, 'audit-print-shop');
  await expectAccessible(panel);
});

test('a page with no tools: the audit says so plainly, with where to start, instead of "No findings"', async ({
  context,
  server,
  openSidePanel,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/plain.html`);
  const panel = await openSidePanel(page);
  await panel.getByRole('button', { name: 'Audit' }).click();
  await expect(panel.locator('.audit-summary')).toHaveText('0 tools in 1 frame, 0 forms, 0 results: 0 errors, 0 warnings, 1 info', {
    timeout: 30_000,
  });
  expect(await listedFindings(panel)).toEqual([['page/no-tools', '']]);
  const finding = panel.locator('.finding[data-rule="page/no-tools"]');
  await expect(finding).toContainText(
    'This page offers agents no WebMCP tools: no frame registered one, by script or with a <form toolname>. It has no forms either.',
  );
  await expect(finding.locator('.finding-fix')).toContainText('Start with the WebMCP spec (https://webmachinelearning.github.io/webmcp/)');
  await expect(panel.getByText(/No findings/)).toHaveCount(0);
});

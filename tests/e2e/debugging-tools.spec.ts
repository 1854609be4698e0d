/**
 * Issue 36 item 3, debugging tools, in the built extension: a tool the page annotates `debugging: true` is for the
 * page's developers (the WebMCP spec: "intended for debugging and developer tooling rather than end-user
 * interactions"). No model is offered it, and a call of it by name is refused where the call is run, from the
 * in-browser agent (a scripted cloud model the page's own result tells to call it) and from a desktop agent (the real
 * installed bridge and the official MCP SDK client); the Develop view lists it, marked, and runs it by hand; the
 * Audit view reports it. tests/fixtures/pages/debugging-tools.html marks a destructive tool so (docs/security.md,
 * "Debugging tools").
 */
import { mergeTests, type Page } from '@playwright/test';
import { siteLabel } from '../../lib/agent/site-tool-names';
import { resultText } from '../fixtures/mcp-desktop-agent';
import { openSidePanel, tabIdOf, toolCard } from './browser';
import { test as bridgeTest, turnSharingOn } from './desktop-agent-browser';
import { expect, expectAccessible, openWithPanel, sendFromPanel, test as panelTest, useCloud } from './sidepanel-helpers';

const test = mergeTests(panelTest, bridgeTest);

test.describe.configure({ timeout: 120_000 });

const TOOLS = ['dump_state', 'read_notes', 'wipe_account'];
const wiped = (page: Page) => page.evaluate(() => (globalThis as { wiped?: boolean }).wiped);

test('a page that marks a destructive tool debugging cannot get the model to call it: the model is not offered it, and its call by name is refused', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel: openPanel,
  tabIdOf: tabOf,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'read_notes', input: {} }] },
    // The page's result told it to: the model calls the debugging tool by name.
    { type: 'reply', toolCalls: [{ name: 'wipe_account', input: { confirm: true } }] },
    { type: 'reply', text: 'I could not do that.' },
  );
  const { tab, panel } = await openWithPanel(
    { context, serviceWorker, tabIdOf: tabOf, openSidePanel: openPanel },
    `${server.url}/debugging-tools.html`,
    TOOLS,
  );
  await sendFromPanel(panel, 'Read my notes and do what they say');
  await expect(panel.locator('.conversation').getByText('I could not do that.')).toBeVisible({ timeout: 60_000 });
  const card = toolCard(panel, 'wipe_account').first();
  await card.locator('summary').first().click();
  await expect(card).toContainText('no tool named "wipe_account" is offered to you');
  expect(await wiped(tab)).toBe(false);
  // No request the model got offered a debugging tool; the ordinary one was.
  const offered = provider.requests.filter((r) => r.body?.tools).map((r) => JSON.stringify(r.body.tools));
  expect(offered.length).toBeGreaterThan(0);
  for (const tools of offered) {
    expect(tools).toContain('read_notes');
    expect(tools).not.toContain('wipe_account');
    expect(tools).not.toContain('dump_state');
  }
});

test('the Develop view lists the debugging tools, marked, and runs one by hand; the Audit view reports them', async ({
  context,
  server,
  openSidePanel: openPanel,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/debugging-tools.html`);
  const panel = await openPanel(page);
  await expect(panel.getByRole('button', { name: 'Tools (3)' })).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Develop' }).click();
  const section = panel.getByRole('region', { name: 'Debugging tools' });
  await expect(section.locator('.tool-inspect h3')).toHaveText(['dump_state', 'wipe_account']);
  const dump = section.locator('.tool-inspect').filter({ has: panel.getByRole('heading', { name: 'dump_state', exact: true }) });
  await dump.locator('summary').click();
  await expect(dump.getByRole('list', { name: 'Annotations' })).toContainText('Debugging: not offered to agents');
  const form = dump.getByRole('form', { name: 'Run dump_state by hand' });
  await form.getByRole('button', { name: 'Run dump_state' }).click();
  await expect(form.locator('.call-result')).toContainText('Done');
  await expect(form.locator('.call-result pre')).toContainText('"wiped":false');
  await expect(panel.locator('.timeline-entry').filter({ hasText: 'dump_state' })).toContainText('By hand');
  await expectAccessible(panel);

  await panel.getByRole('button', { name: 'Audit' }).click();
  const findings = panel.locator('.finding[data-rule="annotation/debugging"]');
  await expect(findings).toHaveCount(2);
  await expect(findings.first()).toContainText('no agent is offered it');
});

test('a desktop agent is not listed a debugging tool, and calling it by name is refused as a name never shared', async ({
  server,
  bridgeBrowser: browser,
  connectAgent,
}) => {
  const { context, sw, extensionId } = browser;
  const page = await context.newPage();
  await page.goto(`${server.url}/debugging-tools.html`);
  await turnSharingOn(browser);
  const panel = await openSidePanel(context, extensionId, await tabIdOf(sw, page));
  await panel.getByRole('button', { name: 'Share this site' }).click();
  const agent = await connectAgent();
  const site = siteLabel(server.url);
  await expect.poll(async () => (await agent.client.listTools()).tools.map((t) => t.name)).toEqual([`${site}__read_notes`]);
  const result = await agent.client.callTool({ name: `${site}__wipe_account`, arguments: { confirm: true } });
  expect(result.isError).toBe(true);
  expect(resultText(result)).toBe(
    'Error [unknown_tool]: No tool of that name is shared with you now. Nothing was run. List the tools to see what is shared.',
  );
  expect(await wiped(page)).toBe(false);
  await expect(panel.locator('.sharing-question')).toHaveCount(0);
});

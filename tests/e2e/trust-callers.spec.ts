/**
 * Issue 33 ("Trust, round three"), items 3, 5a and 5b, in the built extension: a secret the schema marks is masked in
 * every question and view whoever made the call, and shown only on the person's Reveal in one question; grants are
 * per caller; a question closes when its call ends. Desktop agents act through the real installed bridge and the
 * official MCP SDK's Client (tests/fixtures/mcp-desktop-agent.ts); the in-browser agent is a scripted cloud model
 * (the loopback provider). tests/fixtures/pages/sign-in.html is a sign-in tool, not read-only, whose password is
 * `format: password`, and which echoes what it got.
 */
import { type Locator, mergeTests, type Page } from '@playwright/test';
import { siteLabel } from '../../lib/agent/site-tool-names';
import { type DesktopAgent, resultText } from '../fixtures/mcp-desktop-agent';
import { openSidePanel, setStorage, tabIdOf, toolCard } from './browser';
import { expectTools } from './connector-helpers';
import { test as bridgeTest, turnSharingOn } from './desktop-agent-browser';
import { expect, expectAccessible, openWithPanel, sendFromPanel, test as panelTest, useCloud } from './sidepanel-helpers';

const test = mergeTests(panelTest, bridgeTest);

test.describe.configure({ timeout: 120_000 });

const PASSWORD = 'hunter2-correct-horse';
const OTHER_PASSWORD = 'second-secret-9931';
const ARGUMENTS = 'Arguments sign_in would receive';

/** What the page received: the secrets did reach it. */
const seen = (page: Page) => page.evaluate(() => (globalThis as { seen?: string[] }).seen);

/** Every "Copy as JSON" of the Develop timeline, as the clipboard got it (stubbed in the panel). */
async function copyTimeline(panel: Page): Promise<string[]> {
  await panel.evaluate(() => {
    const copied: string[] = [];
    (globalThis as { copied?: string[] }).copied = copied;
    navigator.clipboard.writeText = async (text: string) => void copied.push(text);
  });
  for (const button of await panel.locator('.timeline-entry').getByRole('button', { name: 'Copy as JSON' }).all()) await button.click();
  return panel.evaluate(() => (globalThis as { copied?: string[] }).copied ?? []);
}

/** The panel's whole text, where no secret may be unless the person revealed it. */
const panelText = async (panel: Page) => (await panel.locator('body').textContent()) ?? '';

/** Asserts a question shows the password masked, reveals it on Reveal only there, and masks it again on Hide. */
async function expectMaskedWithReveal(panel: Page, question: Locator, password: string) {
  await expect(question.getByTitle(ARGUMENTS)).toContainText('"password": "[redacted]"');
  expect(await panelText(panel)).not.toContain(password);
  await question.getByRole('button', { name: 'Reveal secret values' }).click();
  await expect(question.getByTitle(ARGUMENTS)).toContainText(`"password": "${password}"`);
  await question.getByRole('button', { name: 'Hide secret values' }).click();
  await expect(question.getByTitle(ARGUMENTS)).toContainText('"password": "[redacted]"');
  expect(await panelText(panel)).not.toContain(password);
}

test('a desktop agent’s password is masked in its question, the timeline and its Copy, and shown only on Reveal in that question', async ({
  server,
  bridgeBrowser: browser,
  connectAgent,
}) => {
  const { context, sw, extensionId } = browser;
  const page = await context.newPage();
  await page.goto(`${server.url}/sign-in.html`);
  await turnSharingOn(browser);
  const panel = await openSidePanel(context, extensionId, await tabIdOf(sw, page));
  await panel.getByRole('button', { name: 'Share this site' }).click();
  const agent = await connectAgent();
  const name = `${siteLabel(server.url)}__sign_in`;
  await expect.poll(async () => (await agent.client.listTools()).tools.map((t) => t.name)).toContain(name);

  const signingIn = agent.client.callTool({ name, arguments: { username: 'ada', password: PASSWORD } });
  // Awaited below; until then, a failed check must be reported, not the call's "Connection closed" at teardown.
  signingIn.catch(() => undefined);
  const question = panel.locator('.sharing-question');
  await expect(question).toContainText('e2e-desktop-agent (desktop agent) asks: Allow sign_in on');
  await expect(question.getByTitle(ARGUMENTS)).toContainText('"username": "ada"');
  await expectMaskedWithReveal(panel, question, PASSWORD);
  await question.getByRole('button', { name: 'Reveal secret values' }).click();
  await expectAccessible(panel);
  await question.getByRole('button', { name: 'Allow once' }).click();
  const signedIn = await signingIn;
  expect(signedIn.isError, resultText(signedIn)).toBeFalsy();
  expect(await seen(page)).toEqual([PASSWORD]);
  // The question closed with what was revealed in it.
  await expect(question).toHaveCount(0);
  expect(await panelText(panel)).not.toContain(PASSWORD);

  await panel.getByRole('button', { name: 'Develop' }).click();
  const entry = panel.locator('.timeline-entry').filter({ hasText: 'sign_in' });
  await expect(entry).toContainText('Desktop agent: e2e-desktop-agent');
  await expect(entry).toHaveAttribute('data-state', 'done');
  // The page echoed the password: the result is redacted too.
  await expect(entry).toContainText('password [redacted] accepted');
  expect(await panelText(panel)).not.toContain(PASSWORD);
  const copies = await copyTimeline(panel);
  expect(copies.map((c) => JSON.parse(c).input)).toEqual([{ username: 'ada', password: '[redacted]' }]);
  expect(copies.join('\n')).not.toContain(PASSWORD);
});

test('the in-browser agent’s question shows what a sign-in would receive with the password masked, revealed only in that question', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel: openPanel,
  tabIdOf: tabOf,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'get_profile', input: {} }] },
    { type: 'reply', text: 'Your profile is on file.' },
    // On another site, with what the bank's profile held in the conversation: the question shows what would go.
    { type: 'reply', toolCalls: [{ name: 'sign_in', input: { username: 'ada', password: PASSWORD } }] },
    { type: 'reply', toolCalls: [{ name: 'sign_in', input: { username: 'ada', password: OTHER_PASSWORD } }] },
    { type: 'reply', text: 'Signed in once.' },
  );
  const { tab, tabId, panel } = await openWithPanel(
    { context, serviceWorker, tabIdOf: tabOf, openSidePanel: openPanel },
    `${server.url}/bank.html`,
    ['get_profile', 'partner_offers'],
  );
  await sendFromPanel(panel, 'What is on my profile?');
  await expect(panel.locator('.conversation').getByText('Your profile is on file.')).toBeVisible({ timeout: 60_000 });
  await tab.goto(`${server.crossOriginUrl}/sign-in.html`);
  await expectTools(serviceWorker, tabId, ['sign_in']);

  await sendFromPanel(panel, 'Sign me in');
  const first = toolCard(panel, 'sign_in').first().locator('fieldset.confirm');
  await expect(first).toContainText(`Allow sign_in on localhost:${server.port}? This conversation holds what was read on`, {
    timeout: 60_000,
  });
  await expect(first.getByTitle(ARGUMENTS)).toContainText('"username": "ada"');
  await expectMaskedWithReveal(panel, first, PASSWORD);
  await first.getByRole('button', { name: 'Reveal secret values' }).click();
  await expect(first.getByTitle(ARGUMENTS)).toContainText(PASSWORD);
  await expectAccessible(panel);
  await first.getByRole('button', { name: 'Allow once' }).click();

  // The next question starts masked: a Reveal counts for its own question only.
  const second = toolCard(panel, 'sign_in').nth(1).locator('fieldset.confirm');
  await expect(second.getByTitle(ARGUMENTS)).toContainText('"password": "[redacted]"', { timeout: 60_000 });
  const shown = await panelText(panel);
  expect(shown).not.toContain(OTHER_PASSWORD);
  // The first call ran and its card shows its input and the page's echo masked.
  expect(shown).not.toContain(PASSWORD);
  await second.getByRole('button', { name: 'Deny' }).click();
  await expect(panel.locator('.conversation').getByText('Signed in once.')).toBeVisible({ timeout: 60_000 });
  expect(await seen(tab)).toEqual([PASSWORD]);
  const card = toolCard(panel, 'sign_in').first();
  await card.locator('summary').first().click();
  await expect(card.getByTitle('Input of sign_in')).toContainText('"password": "[redacted]"');
  await expect(card.getByTitle('Output of sign_in')).toContainText('password [redacted] accepted');
  expect(await panelText(panel)).not.toMatch(new RegExp(`${PASSWORD}|${OTHER_PASSWORD}`));
});

test('grants are per caller: each desktop agent’s “Always” and the in-browser agent’s cover only their own calls, and the options page lists and revokes them by caller', async ({
  server,
  provider,
  bridgeBrowser: browser,
  connectAgent,
}) => {
  const { context, sw, extensionId } = browser;
  // A grant stored before grants had a caller: made in the panel, so the in-browser agent's.
  await setStorage(sw, { 'settings.grants': [{ origin: server.url, tool: 'old_tool', grantedAt: 1 }] });
  await useCloud(sw, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'sign_in', input: { username: 'agent', password: PASSWORD } }] },
    { type: 'reply', text: 'Signed in, first time.' },
    { type: 'reply', toolCalls: [{ name: 'sign_in', input: { username: 'agent', password: PASSWORD } }] },
    { type: 'reply', text: 'Signed in, second time.' },
  );
  const page = await context.newPage();
  await page.goto(`${server.url}/sign-in.html`);
  const options = await turnSharingOn(browser);
  const panel = await openSidePanel(context, extensionId, await tabIdOf(sw, page));
  await panel.getByRole('button', { name: 'Share this site' }).click();
  const name = `${siteLabel(server.url)}__sign_in`;
  const connect = async (client: string) => {
    const agent = await connectAgent(client);
    await expect.poll(async () => (await agent.client.listTools()).tools.map((t) => t.name)).toContain(name);
    return agent;
  };
  const signIn = (agent: DesktopAgent) => agent.client.callTool({ name, arguments: { username: 'desk', password: PASSWORD } });
  const question = panel.locator('.sharing-question');

  // Agent One: "Always on this site", then its next call runs unasked.
  const one = await connect('Agent One');
  const first = signIn(one);
  await expect(question).toContainText('Agent One (desktop agent) asks: Allow sign_in on');
  await question.getByRole('button', { name: 'Always on this site' }).click();
  expect((await first).isError).toBeFalsy();
  expect((await signIn(one)).isError).toBeFalsy();
  expect(await seen(page)).toHaveLength(2);

  // Agent Two is another party: it is asked.
  const two = await connect('Agent Two');
  const second = signIn(two);
  await expect(question).toContainText('Agent Two (desktop agent) asks: Allow sign_in on');
  await question.getByRole('button', { name: 'Deny' }).click();
  expect(resultText(await second)).toMatch(/declined/);

  // The in-browser agent too: Agent One's grant does not cover it. Its own "Always" then covers only itself.
  await sendFromPanel(panel, 'Sign me in');
  const asked = toolCard(panel, 'sign_in').first().locator('fieldset.confirm');
  await expect(asked).toContainText('Allow sign_in on', { timeout: 60_000 });
  await asked.getByRole('button', { name: 'Always on this site' }).click();
  await expect(panel.locator('.conversation').getByText('Signed in, first time.')).toBeVisible({ timeout: 60_000 });
  await sendFromPanel(panel, 'Again');
  await expect(panel.locator('.conversation').getByText('Signed in, second time.')).toBeVisible({ timeout: 60_000 });
  await expect(panel.locator('fieldset.confirm')).toHaveCount(0);
  expect(await seen(page)).toHaveLength(4);
  const third = signIn(two);
  await expect(question).toContainText('Agent Two (desktop agent) asks: Allow sign_in on');
  await question.getByRole('button', { name: 'Deny' }).click();
  expect(resultText(await third)).toMatch(/declined/);
  expect(await seen(page)).toHaveLength(4);

  // The options page lists them by caller, the old grant under the in-browser agent, and revokes one caller's.
  await options.reload();
  const inBrowser = options.getByRole('region', { name: 'The in-browser agent' });
  const agentOne = options.getByRole('region', { name: 'Desktop agent “Agent One”' });
  await expect(inBrowser).toContainText(`old_tool on ${server.url}`);
  await expect(inBrowser).toContainText(`sign_in on ${server.url}`);
  await expect(agentOne).toContainText(`sign_in on ${server.url}`);
  await expect(options.getByRole('region', { name: 'Desktop agent “Agent Two”' })).toHaveCount(0);
  await agentOne.getByRole('button', { name: `Revoke sign_in on ${server.url} for Desktop agent “Agent One”` }).click();
  await expect(agentOne).toHaveCount(0);
  await expect(inBrowser).toContainText(`sign_in on ${server.url}`);
  const stored = async () =>
    ((await sw.evaluate(() => chrome.storage.local.get('settings.grants')))['settings.grants'] as { tool: string; caller?: unknown }[]).map(
      (g) => [g.tool, g.caller],
    );
  await expect.poll(stored).toEqual([
    ['old_tool', { kind: 'agent' }],
    ['sign_in', { kind: 'agent' }],
  ]);
});

test('a desktop agent that gives up on a call (MCP cancel) takes its question out of the panel, and its notification', async ({
  server,
  bridgeBrowser: browser,
  connectAgent,
}) => {
  const { context, sw, extensionId } = browser;
  const page = await context.newPage();
  await page.goto(`${server.url}/sign-in.html`);
  await turnSharingOn(browser);
  const tabId = await tabIdOf(sw, page);
  const panel = await openSidePanel(context, extensionId, tabId);
  await panel.getByRole('button', { name: 'Share this site' }).click();
  const agent = await connectAgent();
  const name = `${siteLabel(server.url)}__sign_in`;
  await expect.poll(async () => (await agent.client.listTools()).tools.map((t) => t.name)).toContain(name);
  const giveUp = (controller: AbortController) =>
    agent.client.callTool({ name, arguments: { username: 'ada', password: PASSWORD } }, undefined, { signal: controller.signal }).then(
      () => 'answered',
      (error: unknown) => `rejected: ${String(error)}`,
    );

  // The panel shows the question; the client cancels; the question goes, with no Allow left to press.
  const first = new AbortController();
  const cancelled = giveUp(first);
  const question = panel.locator('.sharing-question');
  await expect(question).toContainText('e2e-desktop-agent (desktop agent) asks: Allow sign_in on');
  first.abort();
  expect(await cancelled).toMatch(/^rejected:/);
  await expect(question).toHaveCount(0);

  // No panel on the tab: the notification that the call waits goes when the client gives up.
  await panel.close();
  const second = new AbortController();
  const unattended = giveUp(second);
  const notifications = () => sw.evaluate(async () => Object.keys(await chrome.notifications.getAll()));
  await expect.poll(notifications).toEqual([expect.stringMatching(/^mcp-/)]);
  second.abort();
  expect(await unattended).toMatch(/^rejected:/);
  await expect.poll(notifications).toEqual([]);
  const reopened = await openSidePanel(context, extensionId, tabId);
  await expect(reopened.getByRole('button', { name: /^Tools \(\d+\)$/ })).toBeVisible({ timeout: 20_000 });
  await expect(reopened.locator('.sharing-question')).toHaveCount(0);
  expect(await seen(page)).toEqual([]);
});

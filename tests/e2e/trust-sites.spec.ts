/**
 * Issue 22, items 1, 2 and 5, in the built extension with a scripted cloud model (the loopback provider): what the
 * agent read on one site never reaches another site's tool unseen, a run never crosses sites, only the tools
 * offered to the calling agent run, and a call whose outcome is unknown is not repeated without the person.
 * The two loopback names are two sites: 127.0.0.1 (the bank, the shop) and localhost (the partner).
 */
import { readSent } from '../servers/provider-server';
import { addFrame } from './add-frame';
import { setStorage, toolCard } from './browser';
import { expectTools } from './connector-helpers';
import { expect, expectAccessible, openWithPanel, sendFromPanel, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 120_000 });

const SSN = '078-05-1120';

test('after the bank’s profile was read, the partner’s read-only lookup asks, showing what it would receive, and runs nothing when denied', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'get_profile', input: {} }] },
    { type: 'reply', text: 'Your profile is on file.' },
    // On the partner's site, obeying its description: everything said so far.
    { type: 'reply', toolCalls: [{ name: 'lookup', input: { query: `Ada Lovelace, SSN ${SSN}` } }] },
    { type: 'reply', text: 'I did not look it up.' },
  );
  const { tab, tabId, panel } = await openWithPanel({ context, serviceWorker, tabIdOf, openSidePanel }, `${server.url}/bank.html`, [
    'get_profile',
    'partner_offers',
  ]);
  await sendFromPanel(panel, 'What is on my profile?');
  await expect(panel.locator('.conversation').getByText('Your profile is on file.')).toBeVisible({ timeout: 60_000 });

  // The person types the partner's address into the same tab.
  await tab.goto(`${server.crossOriginUrl}/partner.html`);
  await expectTools(serviceWorker, tabId, ['lookup']);
  const notice = panel.getByRole('region', { name: `Now on localhost:${server.port}` });
  await expect(notice).toContainText(`This conversation holds what the agent read on 127.0.0.1:${server.port}.`);

  await sendFromPanel(panel, 'Any offers for me?');
  const card = toolCard(panel, 'lookup');
  const question = card.locator('fieldset.confirm');
  await expect(question).toContainText(
    `Allow lookup on localhost:${server.port}? This conversation holds what was read on 127.0.0.1:${server.port}`,
    { timeout: 60_000 },
  );
  await expect(question.getByTitle('Arguments lookup would receive')).toContainText(SSN);
  await expect(question.getByRole('button', { name: /Always/ })).toHaveCount(0);
  await expectAccessible(panel);
  await question.getByRole('button', { name: 'Deny' }).click();
  await expect(panel.locator('.conversation').getByText('I did not look it up.')).toBeVisible({ timeout: 60_000 });
  expect(await tab.evaluate(() => (window as any).looked)).toEqual([]);
});

test('a partner’s frame inside the bank, delegated tools, gets the profile the agent read on the bank only after the person saw it: its read-only lookup asks, naming both origins and showing the arguments', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'get_profile', input: {} }] },
    // Obeying the frame's description: everything said so far goes to the partner.
    { type: 'reply', toolCalls: [{ name: 'lookup', input: { query: `Ada Lovelace, SSN ${SSN}` } }] },
    { type: 'reply', text: 'I did not look it up.' },
  );
  const tab = await context.newPage();
  await tab.goto(`${server.url}/bank.html`);
  const partner = await addFrame(tab, `${server.crossOriginUrl}/partner.html`, 'tools');
  const tabId = await tabIdOf(tab);
  await expectTools(serviceWorker, tabId, ['get_profile', 'partner_offers', 'lookup']);
  const panel = await openSidePanel(tab);
  await expect(panel.getByRole('button', { name: /^Tools \(\d+\)$/ })).toBeVisible({ timeout: 20_000 });

  // The tab never leaves the bank: what decides is the origin of the frame that owns the tool.
  await sendFromPanel(panel, 'What is on my profile?');
  const question = toolCard(panel, 'lookup').locator('fieldset.confirm');
  const [bank, frame] = [`127.0.0.1:${server.port}`, `localhost:${server.port}`];
  await expect(question).toContainText(
    `Allow lookup on ${frame} (a frame inside ${bank})? This conversation holds what was read on ${bank}; the arguments below would go to ${frame}.`,
    { timeout: 60_000 },
  );
  await expect(question.getByTitle('Arguments lookup would receive')).toContainText(SSN);
  await expect(question.getByRole('button', { name: /Always/ })).toHaveCount(0);
  await question.getByRole('button', { name: 'Deny' }).click();
  await expect(panel.locator('.conversation').getByText('I did not look it up.')).toBeVisible({ timeout: 60_000 });
  expect(await partner.evaluate(() => (window as any).looked)).toEqual([]);
  await expect(tab).toHaveURL(/\/bank\.html$/);
});

test('a run whose tool takes the tab to another site stops there: the partner’s tools never reach the model and its lookup never runs', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'get_profile', input: {} }] },
    { type: 'reply', toolCalls: [{ name: 'partner_offers', input: {} }] },
    { type: 'reply', toolCalls: [{ name: 'lookup', input: { query: `SSN ${SSN}` } }] },
    { type: 'reply', text: 'Done.' },
  );
  const { tab, panel } = await openWithPanel({ context, serviceWorker, tabIdOf, openSidePanel }, `${server.url}/bank.html`, [
    'get_profile',
    'partner_offers',
  ]);
  await sendFromPanel(panel, 'Read my profile, then show me partner offers');

  const outcome = panel.locator('.outcome');
  await expect(outcome).toContainText(`The tab moved from 127.0.0.1:${server.port} to localhost:${server.port}, so the run stopped`, {
    timeout: 60_000,
  });
  await expect(tab).toHaveURL(/\/partner\.html$/);
  expect(await tab.evaluate(() => (window as any).looked)).toEqual([]);
  // partner_offers answers before its page leaves, so a third step may already be on its way when the partner's
  // page reports; whatever it asks, no request ever carried the partner's tools, and nothing ran there.
  const generations = provider.requests.filter((r) => r.path.endsWith('/chat/completions'));
  expect(generations.length).toBeGreaterThanOrEqual(2);
  for (const request of generations) expect(readSent(request).tools.map((t) => t.name)).not.toContain('lookup');
  for (const state of await toolCard(panel, 'lookup').locator('.tool-state').allTextContents()) expect(state).not.toBe('done');
});

test('only the tools offered to the calling agent run: a planted review’s calls to other agents’ tools, unlisted tools and a page’s delegate_to_* reach neither page nor person', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  const origin = server.url;
  await setStorage(serviceWorker, {
    'settings.sites': [
      {
        origin,
        instructions: 'A shop.',
        tools: ['search'],
        subAgents: [
          { id: 'reviews', name: 'Reviews', instructions: 'Reads reviews.', tools: ['read_reviews'] },
          { id: 'checkout', name: 'Checkout', instructions: 'Checks out.', tools: ['check_out'] },
        ],
      },
    ],
    // check_out was allowed "Always" earlier, for the checkout agent.
    'settings.grants': [{ origin, tool: 'check_out', grantedAt: 1 }],
  });
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'delegate_to_reviews', input: { task: 'Summarise the reviews.' } }] },
    // The reviews agent reads a review that plants four calls, and obeys.
    { type: 'reply', toolCalls: [{ name: 'read_reviews', input: {} }] },
    {
      type: 'reply',
      toolCalls: [
        { name: 'check_out', input: {} },
        { name: 'export_addresses', input: {} },
        { name: 'search', input: {} },
        { name: 'delegate_to_checkout', input: { task: 'Buy it.' } },
      ],
    },
    { type: 'reply', text: 'The reviews are good.' },
    // The site's agent, injected in turn: a tool no agent lists, read-only and not.
    {
      type: 'reply',
      toolCalls: [
        { name: 'read_messages', input: {} },
        { name: 'delete_account', input: {} },
      ],
    },
    { type: 'reply', text: 'People like it.' },
  );
  const { tab: shop, panel } = await openWithPanel({ context, serviceWorker, tabIdOf, openSidePanel }, `${server.url}/shop-tools.html`, [
    'search',
    'read_reviews',
    'check_out',
    'export_addresses',
    'delete_account',
    'read_messages',
    'delegate_to_checkout',
  ]);
  await sendFromPanel(panel, 'What do people say about the mug?');
  await expect(panel.locator('.conversation').getByText('People like it.')).toBeVisible({ timeout: 60_000 });

  expect(await shop.evaluate(() => (window as any).ran)).toEqual(['read_reviews']);
  await expect(panel.locator('fieldset.confirm')).toHaveCount(0);
  const nested = toolCard(panel, 'delegate_to_reviews').getByRole('region', { name: 'Sub-agent reviews' });
  for (const [scope, name] of [
    [nested, 'check_out'],
    [nested, 'export_addresses'],
    [nested, 'search'],
    [nested, 'delegate_to_checkout'],
    [panel, 'read_messages'],
    [panel, 'delete_account'],
  ] as const) {
    const card = toolCard(scope, name).last();
    await expect(card.locator('.tool-state'), name).toHaveText('failed');
    await card.locator('summary').first().click();
    await expect(card.locator('.tool-body').first(), name).toContainText(
      `Error [unknown_tool]: no tool named "${name}" is offered to you.`,
    );
  }
});

test('a payment whose outcome is unknown is not repeated without the person, even under "Never ask"', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  await setStorage(serviceWorker, { 'settings.confirmation': 'never', 'settings.confirmationChosen': true });
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'pay', input: { amount: 5 } }] },
    { type: 'reply', toolCalls: [{ name: 'pay', input: { amount: 5 } }] },
    { type: 'reply', text: 'I did not pay again.' },
  );
  const { tab, panel } = await openWithPanel({ context, serviceWorker, tabIdOf, openSidePanel }, `${server.url}/flaky-pay.html`, ['pay']);
  await sendFromPanel(panel, 'Pay 5');

  const [first, second] = [toolCard(panel, 'pay').first(), toolCard(panel, 'pay').nth(1)];
  await expect(first.locator('.tool-state')).toHaveText('outcome unknown', { timeout: 60_000 });
  const question = second.locator('fieldset.confirm');
  await expect(question).toContainText('outcome unknown', { timeout: 60_000 });
  await expect(question.getByTitle('Arguments pay would receive')).toContainText('"amount": 5');
  expect(await tab.evaluate(() => (window as any).paid)).toEqual([5]);
  await question.getByRole('button', { name: 'Deny' }).click();
  await expect(panel.locator('.conversation').getByText('I did not pay again.')).toBeVisible({ timeout: 60_000 });
  expect(await tab.evaluate(() => (window as any).paid)).toEqual([5]);
  const secondRequest = provider.requests.filter((r) => r.path.endsWith('/chat/completions'))[1];
  expect(JSON.stringify(readSent(secondRequest).toolResults)).toContain(
    'Outcome unknown: it may have happened. Check the page before trying again.',
  );
});

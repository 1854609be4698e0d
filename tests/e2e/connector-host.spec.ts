import { expectTools, IMPERATIVE_TOOLS, test, textOf } from './connector-helpers';
import type { Worker } from '@playwright/test';
import { expect } from './fixtures';
import { askRouterExpression, type RouterAsk } from '../shared/ask-router';

/** Asks the router as the agent host does, through its line's handlers in the service worker (tests/shared/ask-router.ts). */
const askRouter = (serviceWorker: Worker, ask: RouterAsk): Promise<any> => serviceWorker.evaluate(askRouterExpression(ask));

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

test('the agent host protocol: the router’s line handlers give the snapshot, run a call and take its cancel', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/imperative.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, IMPERATIVE_TOOLS);
  const snapshot = await askRouter(serviceWorker, { type: 'router/get-tools', request: { tabId } });
  expect(snapshot.tabId).toBe(tabId);
  expect(snapshot.tools.find((t: any) => t.name === 'counter_increment')).toMatchObject({ originalName: 'counter.increment', frameId: 0 });
  expect(snapshot.page).toEqual({
    url: `${server.url}/imperative.html`,
    path: '/imperative.html',
    title: 'Imperative tools',
    h1: 'Imperative tools',
  });
  const answer = await askRouter(serviceWorker, {
    type: 'router/call-tool',
    request: { tabId, call: { id: 'c1', name: 'counter_increment', input: { n: 5 } } },
  });
  expect(answer.output).toEqual({ content: [{ type: 'text', text: 'Count is 5' }] });
  // The tools after the call come with its answer: the host asks nothing else.
  expect(answer.snapshot.tools.map((t: any) => t.name)).toEqual(snapshot.tools.map((t: any) => t.name));
  expect(answer.snapshot.revision).toBeGreaterThanOrEqual(snapshot.revision);
  // Cancel through the protocol: the line's cancel of the ask reaches the router's handler as an aborted signal.
  const cancelled = await askRouter(serviceWorker, {
    type: 'router/call-tool',
    request: { tabId, call: { id: 'c2', name: 'hangs', input: {} } },
    cancelAfterMs: 300,
  });
  expect(textOf(cancelled.output)).toBe('Error [cancelled]: "hangs" was cancelled; the page was told (toolcancel).');
  await expect.poll(() => page.evaluate(() => (window as any).calls)).toEqual(['hangs aborted', 'toolcancel hangs']);
});

test('the tab snapshot survives the service worker being stopped (it lives in storage.session)', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  openOptions,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/frames-tools.html`);
  const tabId = await tabIdOf(page);
  const before = await expectTools(serviceWorker, tabId, ['cross_only', 'same_only', 'where', 'where_2', 'where_3']);
  const host = await openOptions();
  // Stop every service worker, as Chrome does to an idle one.
  await serviceWorker.evaluate(() => {
    (globalThis as any).sameWorker = true;
  });
  const cdp = await context.newCDPSession(host);
  const versions: { versionId: string; runningStatus: string }[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (event) => versions.push(...event.versions));
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => versions.some((v) => v.runningStatus === 'running')).toBe(true);
  for (const v of versions.filter((v) => v.runningStatus === 'running'))
    await cdp.send('ServiceWorker.stopWorker', { versionId: v.versionId });
  // The worker reports stopping; it may already be running again by the time we look (a content script's or the
  // host's message wakes it), so wait for the event, not for the state. The fresh worker is checked below.
  await expect.poll(() => versions.some((v) => v.runningStatus === 'stopped')).toBe(true);
  // The host's call for a line (its line closed with the worker) wakes a fresh worker, which answers from session
  // storage: same names, same routes.
  await host.evaluate(() => chrome.runtime.sendMessage({ type: 'router/connect' }).catch(() => undefined));
  const freshWorker = async () => {
    const worker = context.serviceWorkers().at(-1);
    return worker && !(await worker.evaluate(() => (globalThis as any).sameWorker ?? false).catch(() => true)) ? worker : undefined;
  };
  await expect.poll(async () => Boolean(await freshWorker())).toBe(true);
  const fresh = (await freshWorker())!;
  const after = await askRouter(fresh, { type: 'router/get-tools', request: { tabId } });
  expect(after.tools).toEqual(before.tools);
  const crossWhere = before.tools.find((t) => t.originalName === 'where' && t.origin === server.crossOriginUrl)!.name;
  const output = await askRouter(fresh, { type: 'router/call-tool', request: { tabId, call: { id: 'c', name: crossWhere, input: {} } } });
  expect(textOf(output.output)).toBe('cross');
});

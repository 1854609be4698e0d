import { readFileSync } from 'node:fs';
import { callTool, expectTools, test } from './connector-helpers';
import { expect } from './fixtures';

// The browser bundles of @mcp-b/global, straight from node_modules (nothing copied into the repo): today's, and 1.x
// (installed under the alias @mcp-b/global-v1), which puts its own navigator.modelContext in the page.
const GLOBAL_BUNDLE = readFileSync('node_modules/@mcp-b/global/dist/index.iife.js');
const GLOBAL_V1_BUNDLE = readFileSync('node_modules/@mcp-b/global-v1/dist/index.iife.js');

test('a page that loads @mcp-b/global from npm after the extension keeps working, and its tools are read', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  server.route((req, res) => {
    if (!req.url?.startsWith('/vendor/mcp-b-global.iife.js')) return false;
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(GLOBAL_BUNDLE);
    return true;
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/mcp-b-global.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['global_add']);
  expect(await callTool(serviceWorker, tabId, 'global_add', { a: 2, b: 3 })).toEqual({ content: [{ type: 'text', text: '5' }] });
  // @mcp-b/global really replaced document.modelContext (an own property of document, over ours or the native one).
  expect(await page.evaluate(() => Object.getOwnPropertyDescriptor(document, 'modelContext') !== undefined)).toBe(true);
  // The page itself still works with its library.
  expect(await page.evaluate(async () => (await (document as any).modelContext.getTools()).map((t: any) => t.name))).toEqual([
    'global_add',
  ]);
  expect(errors).toEqual([]);
});

test('a page whose own implementation replaced document.modelContext is still read', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/own-implementation.html`);
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['own_tool']);
  expect(await callTool(serviceWorker, tabId, 'own_tool', { x: 1 })).toEqual({
    content: [{ type: 'text', text: '{"got":{"x":1}}' }],
    structuredContent: { got: { x: 1 } },
  });
});

test('a page built on @mcp-b/global 1.x is read once its tab is watched, natively too, and not before', async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
  nativeWebMCP,
}) => {
  server.route((req, res) => {
    if (!req.url?.startsWith('/vendor/mcp-b-global-v1.iife.js')) return false;
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(GLOBAL_V1_BUNDLE);
    return true;
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/mcp-b-global-v1.html`);
  await page.waitForFunction(() => document.readyState === 'complete');
  const bridgeStarted = () => page.evaluate(() => Object.hasOwn(window, Symbol.for('webmcp-agent.page-bridge')));
  // The library registers on its own navigator.modelContext: on a native browser nothing reaches document.modelContext,
  // so nothing wakes the lazy connector, and a page nobody watches gets nothing from the extension.
  if (nativeWebMCP) {
    expect(await page.evaluate(async () => (await (document as any).modelContext.getTools()).length)).toBe(0);
    expect(await bridgeStarted()).toBe(false);
  }
  const tabId = await tabIdOf(page);
  await expectTools(serviceWorker, tabId, ['v1_add']);
  expect(await bridgeStarted()).toBe(true);
  expect(await callTool(serviceWorker, tabId, 'v1_add', { a: 2, b: 3 })).toEqual({ content: [{ type: 'text', text: '5' }] });
  // A tool the page registers later, on a click, is heard (the library dispatches no events).
  await page.click('#more');
  await expectTools(serviceWorker, tabId, ['v1_add', 'v1_later']);
  expect(await callTool(serviceWorker, tabId, 'v1_later')).toEqual({ content: [{ type: 'text', text: 'later' }] });
  // The page's own library still works as it did.
  expect(await page.evaluate(async () => (await (navigator as any).modelContext.listTools()).map((t: any) => t.name))).toEqual([
    'v1_add',
    'v1_later',
  ]);
  expect(errors).toEqual([]);
});

/**
 * The store listing's screenshots (docs/store-listing.md), taken by `npm run release` from the store build itself in
 * headless Chromium on the demo shop: 1280×800, the size both stores take. A browser has no side panel headless, so
 * the panel's own page (sidepanel.html bound to the shop's tab, as the tests open it) is shot beside the shop and the
 * two are set side by side, as a person sees them.
 *
 * The answer in the conversation comes from the loopback stand-in for a cloud provider (tests/servers/provider-server.ts,
 * scripted): no model runs here. Everything else is the real extension: the shop's tools listed, the call made in the
 * page, its card, the options page.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { findServiceWorker, launchBrowser, openSidePanel, tabIdOf } from '../tests/e2e/browser';
import { startProviderServer } from '../tests/servers/provider-server';
import { startStaticServer } from '../tests/servers/static-server';

const WIDTH = 1280;
const HEIGHT = 800;
const PANEL_WIDTH = 400;
const KEY = 'sk-screenshot';

/** Waits until `probe` is true, polling (the service worker has no event for "stubs registered"). */
async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`screenshots: timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

/** The shop and the panel side by side, in one 1280×800 image. */
async function sideBySide(context: BrowserContext, shop: Page, panel: Page, path: string): Promise<void> {
  const [left, right] = await Promise.all([shop.screenshot(), panel.screenshot()]);
  const page = await context.newPage();
  await page.setViewportSize({ width: WIDTH, height: HEIGHT });
  const img = (png: Buffer, width: number) =>
    `<img src="data:image/png;base64,${png.toString('base64')}" width="${width}" height="${HEIGHT}">`;
  await page.setContent(
    `<body style="margin:0;display:flex;background:#fff">${img(left, WIDTH - PANEL_WIDTH)}<div style="width:1px;background:#bbb"></div>${img(right, PANEL_WIDTH - 1)}</body>`,
  );
  await page.screenshot({ path });
  await page.close();
}

/** Launches the unpacked build at `extensionDir` and writes the listing's screenshots into `outDir`. */
export async function takeStoreScreenshots(extensionDir: string, outDir: string): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const server = await startStaticServer({ '/demo': 'demo' });
  const provider = await startProviderServer({ apiKey: KEY });
  const { context, close } = await launchBrowser({ extensionDir: resolve(extensionDir) });
  try {
    const sw: Worker = await findServiceWorker(context);
    const extensionId = new URL(sw.url()).host;
    await until('the page stubs', () => sw.evaluate(async () => (await chrome.scripting.getRegisteredContentScripts()).length > 0));
    // Cloud settings as the options page stores them.
    await sw.evaluate(
      ([baseURL, key]) =>
        chrome.storage.local.set({
          'settings.mode': 'cloud',
          'settings.cloud': { provider: 'openai-compatible', baseURL, model: 'your-model' },
          'secret.apiKey.openai-compatible': key,
          'settings.apiKeyMask.openai-compatible': 'sk-…shot',
        }),
      [`${provider.url}/v1`, KEY] as const,
    );
    provider.script(
      { type: 'reply', toolCalls: [{ name: 'search_products', input: { query: 'mug' } }] },
      { type: 'reply', text: 'I found one: the **Stoneware Mug**, hand-glazed, 350 ml, for $22.00.\n\nShall I add it to your cart?' },
    );

    const shop = await context.newPage();
    await shop.setViewportSize({ width: WIDTH - PANEL_WIDTH, height: HEIGHT });
    await shop.goto(`${server.url}/demo/`);
    const panel = await openSidePanel(context, extensionId, await tabIdOf(sw, shop));
    await panel.setViewportSize({ width: PANEL_WIDTH, height: HEIGHT });
    const tools = panel.getByRole('button', { name: /^Tools \(\d+\)$/ });
    await tools.waitFor({ timeout: 30_000 });
    await tools.click();
    await panel.locator('.tools-view .tool-list').waitFor();
    await sideBySide(context, shop, panel, join(outDir, '1-the-shops-tools.png'));
    await panel.getByRole('button', { name: 'Chat', exact: true }).click();

    await panel.getByRole('textbox', { name: 'Message' }).fill('Find me a mug');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.locator('.markdown strong', { hasText: 'Stoneware Mug' }).waitFor({ timeout: 30_000 });
    await sideBySide(context, shop, panel, join(outDir, '2-a-tool-call-on-the-shop.png'));

    const options = await context.newPage();
    await options.setViewportSize({ width: WIDTH, height: HEIGHT });
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    await options.getByRole('heading', { name: 'WebMCP Agent settings' }).waitFor();
    await options.locator('.settings-form').waitFor();
    await options.screenshot({ path: join(outDir, '3-settings.png') });
  } finally {
    await close();
    await provider.close();
    await server.close();
  }
}

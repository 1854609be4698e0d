/**
 * Firefox smoke test (`npm run test:firefox`): the Firefox build in firefox-esr over WebDriver BiDi.
 * Without firefox-esr (or $FIREFOX_PATH) it prints a skip line and exits 0; otherwise it exits non-zero when
 * any check fails, and ends with "N passed, N failed".
 */
import { existsSync } from 'node:fs';
import type { Page } from 'puppeteer-core';
import type { ToolOutput } from '../../lib/agent/types';
import type { TabToolSnapshot } from '../../lib/background/tool-bridge';
import type { HostToBackgroundMessage } from '../../lib/messaging/bridge-messages';
import { type StaticServer, startStaticServer } from '../servers/static-server';
import { FIREFOX, FIREFOX_BUILD, type FirefoxSession, launchFirefox, run, waitFor } from './launch-firefox';

let passed = 0;
let failed = 0;

async function check(name: string, body: () => Promise<void>): Promise<boolean> {
  const started = Date.now();
  try {
    await body();
    passed++;
    console.log(`  ✓ ${name} (${Date.now() - started} ms)`);
    return true;
  } catch (error) {
    failed++;
    console.log(`  ✗ ${name} (${Date.now() - started} ms)\n      ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** Sends a message from an extension page to the background, as the side panel's host client does. */
function toBackground<T>(extensionPage: Page, message: HostToBackgroundMessage): Promise<T> {
  return run<T>(extensionPage, '(m) => browser.runtime.sendMessage(m)', message);
}

function textOf(output: ToolOutput): string {
  return output.content.map((part) => ('text' in part ? part.text : '')).join('');
}

async function main(): Promise<number> {
  if (!existsSync(FIREFOX)) {
    console.log(`firefox smoke: skipped, no Firefox at ${FIREFOX} (install firefox-esr, or set FIREFOX_PATH).`);
    return 0;
  }
  console.log(`firefox smoke: ${FIREFOX} with ${FIREFOX_BUILD}`);
  const server: StaticServer = await startStaticServer({ '/': 'tests/fixtures/pages', '/demo': 'demo' });
  let session: FirefoxSession | undefined;
  try {
    const installed = await check('the extension installs as a temporary add-on', async () => {
      session = await launchFirefox();
      assert(session.extensionId === 'webmcp-agent@webmcp-agent.dev', `installed as ${session.extensionId}`);
    });
    if (!installed || !session) return 1;

    const { page, extensionPage, tabId } = await session.openWithExtensionPage(`${server.url}/demo/`, 'sidepanel.html');

    await check('the MAIN-world polyfill gives the page document.modelContext and the demo registers its tools', async () => {
      await waitFor('the demo to find WebMCP', () =>
        run<boolean>(page, "() => document.getElementById('webmcp-status').dataset.state === 'ready'"),
      );
      const kind = await run<string>(page, '() => typeof document.modelContext');
      assert(kind === 'object', `document.modelContext is ${kind}`);
    });

    await check('both content scripts run: the isolated world answers and reaches the MAIN world', async () => {
      const reply = await run<{ world: string; mainWorld: boolean; url: string }>(
        extensionPage,
        "(tabId) => browser.tabs.sendMessage(tabId, { type: 'ping' })",
        tabId,
      );
      assert(reply?.world === 'isolated', `isolated world answered ${JSON.stringify(reply)}`);
      assert(reply.mainWorld === true, 'the isolated world did not reach the MAIN world');
    });

    const expected = ['check_out', 'get_cart', 'open_product', 'search_products', 'subscribe_newsletter'];
    await check("the background finds the page's tools (imperative and declarative)", async () => {
      const names = await waitFor('the tools to reach the background', async () => {
        const snapshot = await toBackground<TabToolSnapshot>(extensionPage, { type: 'bridge:get-tools', tabId });
        const list = snapshot.tools.map((t) => t.name).sort();
        return expected.every((n) => list.includes(n)) ? list : undefined;
      });
      assert(!names.includes('add_to_cart'), 'add_to_cart is listed off a product page');
      const snapshot = await toBackground<TabToolSnapshot>(extensionPage, { type: 'bridge:get-tools', tabId });
      const byName = new Map(snapshot.tools.map((t) => [t.name, t]));
      assert(byName.get('check_out')?.annotations?.consequentialHint === true, 'check_out lost consequentialHint');
      assert(byName.get('subscribe_newsletter')?.declarative === true, 'subscribe_newsletter is not declarative');
    });

    await check('a call through the extension runs the page tool, and the view swaps its tools', async () => {
      const output = await toBackground<ToolOutput>(extensionPage, {
        type: 'bridge:call-tool',
        tabId,
        requestId: 'smoke-1',
        call: { id: 'call-1', name: 'open_product', input: { productId: 'rain-jacket' } },
      });
      assert(!output.isError, `open_product failed: ${textOf(output)}`);
      assert(textOf(output).includes('Opened Packable Rain Jacket'), `unexpected result: ${textOf(output)}`);
      const heading = await run<string>(page, "() => document.querySelector('h1').textContent");
      assert(heading === 'Packable Rain Jacket', `the page shows "${heading}"`);
      await waitFor('add_to_cart to appear', async () => {
        const snapshot = await toBackground<TabToolSnapshot>(extensionPage, { type: 'bridge:get-tools', tabId });
        return snapshot.tools.some((t) => t.name === 'add_to_cart');
      });
      const added = await toBackground<ToolOutput>(extensionPage, {
        type: 'bridge:call-tool',
        tabId,
        requestId: 'smoke-2',
        call: { id: 'call-2', name: 'add_to_cart', input: { size: 'Medium' } },
      });
      assert(!added.isError, `add_to_cart failed: ${textOf(added)}`);
      const count = await run<string>(page, "() => document.getElementById('cart-count').textContent");
      assert(count === '1', `the cart badge shows ${count}`);
    });

    await check('the sidebar page renders', async () => {
      await waitFor('the sidebar heading', () =>
        run<boolean>(extensionPage, "() => [...document.querySelectorAll('h1')].some((h) => h.textContent.includes('WebMCP Agent'))"),
      );
    });
  } finally {
    await session?.close();
    await server.close();
  }
  return failed ? 1 : 0;
}

const code = await main().catch((error: unknown) => {
  failed++;
  console.log(`  ✗ firefox smoke crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return 1;
});
console.log(`${passed} passed, ${failed} failed`);
process.exit(code);

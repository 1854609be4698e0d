/**
 * A browser for desktop-agent tests (mcp-bridge.spec.ts, trust-callers.spec.ts, trust-native-link.spec.ts,
 * debugging-tools.spec.ts): Chromium with the bridge installed by its CLI into a fresh profile (NativeMessagingHosts/),
 * and sharing turned on as the person does it.
 *
 * Written once here: {@link launchWithBridge} for a test that owns its bridge browser (one about the install, a
 * restart, the native host's own life, or its own browser environment), and the fixtures of {@link test}:
 * `bridgeBrowser`, one per Playwright worker (per project), reset after every test that passed as the worker's normal
 * browser is (reset-browser.ts), and `connectAgent`, desktop agents that are closed when the test ends.
 * docs/testing.md § Which tests own a browser lists which tests launch their own.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { connectDesktopAgent, type DesktopAgent, type InstalledBridge, installBridge } from '../fixtures/mcp-desktop-agent';
import { launchExtension } from './browser';
import { test as base, expect } from './fixtures';
import { guardContext, resetBrowser } from './reset-browser';

/** Chromium with the extension, on a profile the bridge is installed into. */
export interface BridgeBrowser {
  context: BrowserContext;
  sw: Worker;
  extensionId: string;
  bridge: InstalledBridge;
  profile: string;
}

/** A bridge browser the caller launched, and closes (with its profile and the bridge's home). */
export interface LaunchedBridgeBrowser extends BridgeBrowser {
  close: () => Promise<void>;
}

/**
 * A profile with the bridge installed into it (NativeMessagingHosts/), and Chromium started on it with the
 * extension. `env`: the browser's environment (the bridge's socket folder is added to it).
 */
export async function launchWithBridge(
  native: boolean,
  env: Record<string, string> = process.env as Record<string, string>,
): Promise<LaunchedBridgeBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'webmcp-agent-'));
  const bridge = installBridge(['--user-data-dir', profile]);
  const { context, sw, extensionId, close } = await launchExtension({
    native,
    profile,
    env: { ...env, WEBMCP_AGENT_BRIDGE_DIR: bridge.bridgeDir },
  });
  return {
    context,
    sw,
    extensionId,
    bridge,
    profile,
    close: async () => {
      await close();
      bridge.remove();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Turns sharing on in the options page, as the person does, and waits for the bridge to run. */
export async function turnSharingOn(browser: BridgeBrowser): Promise<Page> {
  const options = await browser.context.newPage();
  await options.goto(`chrome-extension://${browser.extensionId}/options.html`);
  await options.getByLabel('Share tools with desktop agents').check();
  await expect(options.getByText('The bridge is running. No desktop agent is connected yet.')).toBeVisible();
  return options;
}

/** The worker's bridge browser, and every http(s) origin its pages asked something of since the last reset. */
interface SharedBridgeBrowser {
  browser: LaunchedBridgeBrowser;
  origins: Set<string>;
}

async function launchSharedBridge(native: boolean): Promise<SharedBridgeBrowser> {
  const browser = await launchWithBridge(native);
  const origins = new Set<string>();
  browser.context.on('request', (request) => {
    const url = request.url();
    if (url.startsWith('http:') || url.startsWith('https:')) origins.add(new URL(url).origin);
  });
  return { browser, origins };
}

/**
 * Puts the bridge browser back as a fresh launch with the bridge installed leaves it, after resetBrowser (which
 * clears the sharing switch and the shared sites with the extension's storage, and restarts its service worker): the
 * native host the browser started ends once the restarted worker no longer holds its port (it removes its socket
 * then), and the notifications of questions that waited are closed (they outlive the worker).
 */
async function resetBridgeBrowser(shared: SharedBridgeBrowser, origins: string[]): Promise<void> {
  const { context, extensionId, sw, bridge } = shared.browser;
  await resetBrowser(context, extensionId, [...shared.origins, ...origins]);
  shared.origins.clear();
  await sw.evaluate(async () => {
    for (const id of Object.keys(await chrome.notifications.getAll())) await chrome.notifications.clear(id);
  });
  const socket = join(bridge.bridgeDir, 'bridge.sock');
  await expect.poll(() => existsSync(socket), { message: 'the native host ended after the reset' }).toBe(false);
}

interface BridgeFixtures {
  /** The worker's browser with the bridge installed, reset after each test: sharing off, no host running. */
  bridgeBrowser: BridgeBrowser;
  /** Connects a desktop agent (the MCP SDK's Client through the installed MCP server); closed when the test ends. */
  connectAgent: (name?: string) => Promise<DesktopAgent>;
}

interface BridgeWorkerFixtures {
  /** The worker's bridge browser, launched when a test first needs it. */
  sharedBridgeBrowser: () => Promise<SharedBridgeBrowser>;
}

/** The fixtures of ./fixtures.ts, plus the worker's bridge browser and desktop agents (merge with mergeTests for more). */
export const test = base.extend<BridgeFixtures, BridgeWorkerFixtures>({
  sharedBridgeBrowser: [
    async ({ nativeWebMCP }, use) => {
      let launched: Promise<SharedBridgeBrowser> | undefined;
      await use(() => {
        launched ??= launchSharedBridge(nativeWebMCP);
        return launched;
      });
      await (await launched?.catch(() => undefined))?.browser.close();
    },
    { scope: 'worker' },
  ],
  bridgeBrowser: async ({ sharedBridgeBrowser, workerServer }, use, testInfo) => {
    const shared = await sharedBridgeBrowser();
    const guard = guardContext(shared.browser.context);
    const { context, sw, extensionId, bridge, profile } = shared.browser;
    await use({ context, sw, extensionId, bridge, profile });
    // A failed test's worker is thrown away with its browsers (Playwright starts a new worker): nothing to reset.
    if (testInfo.status !== testInfo.expectedStatus && testInfo.status !== 'skipped') return;
    await guard.restore();
    await resetBridgeBrowser(shared, [workerServer.url, workerServer.crossOriginUrl]);
  },
  connectAgent: async ({ bridgeBrowser }, use) => {
    const agents: DesktopAgent[] = [];
    await use(async (name) => {
      const agent = await connectDesktopAgent(bridgeBrowser.bridge, name);
      agents.push(agent);
      return agent;
    });
    // Before the browser's reset (this fixture ends first): the MCP servers the agents started end with them.
    for (const agent of agents) await agent.close();
  },
});

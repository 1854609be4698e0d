/**
 * A browser for desktop-agent tests (mcp-bridge.spec.ts, trust-callers.spec.ts, trust-native-link.spec.ts): Chromium
 * with the bridge installed by its CLI into a fresh profile (NativeMessagingHosts/), and sharing turned on as the person does it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { type InstalledBridge, installBridge } from '../fixtures/mcp-desktop-agent';
import { launchExtension } from './browser';
import { expect } from './fixtures';

export interface BridgeBrowser {
  context: BrowserContext;
  sw: Worker;
  extensionId: string;
  bridge: InstalledBridge;
  profile: string;
  close: () => Promise<void>;
}

/**
 * A profile with the bridge installed into it (NativeMessagingHosts/), and Chromium started on it with the
 * extension. `env`: the browser's environment (the bridge's socket folder is added to it).
 */
export async function launchWithBridge(
  native: boolean,
  env: Record<string, string> = process.env as Record<string, string>,
): Promise<BridgeBrowser> {
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

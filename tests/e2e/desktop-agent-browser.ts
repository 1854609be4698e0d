/**
 * A browser for desktop-agent tests (tests/e2e/mcp-bridge.spec.ts, trust-callers.spec.ts): the bridge installed by
 * its CLI into a fresh Chromium profile (NativeMessagingHosts/), Chromium started on it with the extension, and
 * sharing turned on as the person does it.
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

/** A profile with the bridge installed into it, and Chromium started on it with the extension. */
export async function launchWithBridge(native: boolean): Promise<BridgeBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'webmcp-agent-'));
  const bridge = installBridge(['--user-data-dir', profile]);
  const { context, sw, extensionId, close } = await launchExtension({
    native,
    profile,
    env: { ...(process.env as Record<string, string>), WEBMCP_AGENT_BRIDGE_DIR: bridge.bridgeDir },
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

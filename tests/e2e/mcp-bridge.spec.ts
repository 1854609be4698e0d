/**
 * The bridge to desktop agents in the built extension (issue 24; docs/security.md § 7): the bridge installed by its
 * CLI into the test profile (NativeMessagingHosts/), the browser starting the real native host, and the official MCP
 * SDK's Client starting the installed MCP server over stdio, as Claude Code would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { CHROME_EXTENSION_ID } from '../../bridge/src/extension-ids';
import { siteLabel } from '../../lib/mcp-bridge/mcp-tool-names';
import { connectDesktopAgent, type DesktopAgent, type InstalledBridge, installBridge, resultText } from '../fixtures/mcp-desktop-agent';
import { launchExtension, openSidePanel, tabIdOf } from './browser';
import { evaluateInContentScript } from './content-script-world';
import { expect, test } from './fixtures';

interface BridgeBrowser {
  context: BrowserContext;
  sw: Worker;
  extensionId: string;
  bridge: InstalledBridge;
  profile: string;
  close: () => Promise<void>;
}

/** A profile with the bridge installed into it, and Chromium started on it with the extension. */
async function launchWithBridge(native: boolean): Promise<BridgeBrowser> {
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
async function turnSharingOn(browser: BridgeBrowser): Promise<Page> {
  const options = await browser.context.newPage();
  await options.goto(`chrome-extension://${browser.extensionId}/options.html`);
  await options.getByLabel('Share tools with desktop agents').check();
  await expect(options.getByText('The bridge is running. No desktop agent is connected yet.')).toBeVisible();
  return options;
}

test('a desktop agent lists the shared shop’s tools, calls a read-only one, waits for the person’s answer in the panel, hears list_changed after a navigation, and reaches no other site', async ({
  server,
  nativeWebMCP,
}) => {
  const browser = await launchWithBridge(nativeWebMCP);
  let agent: DesktopAgent | undefined;
  try {
    expect(browser.extensionId).toBe(CHROME_EXTENSION_ID);
    expect(browser.bridge.output).toContain(`Installed for Chromium profile ${browser.profile}`);
    const { context, sw, extensionId } = browser;
    const shop = await context.newPage();
    await shop.goto(`${server.url}/demo/`);
    const elsewhere = await context.newPage();
    const otherSite = server.url.replace('127.0.0.1', 'localhost');
    await elsewhere.goto(`${otherSite}/imperative.html`);

    await turnSharingOn(browser);
    const panel = await openSidePanel(context, extensionId, await tabIdOf(sw, shop));
    const host = new URL(server.url).host;
    await panel.getByRole('button', { name: 'Share this site' }).click();
    await expect(panel.getByText(`${host} is shared with desktop agents.`)).toBeVisible();

    agent = await connectDesktopAgent(browser.bridge);
    await expect(panel.getByText('Connected: e2e-desktop-agent 1.0.0.')).toBeVisible();
    const label = siteLabel(server.url);
    const instructions = agent.client.getInstructions() ?? '';
    const tag = /<(page-data-[0-9a-f]{16})>/.exec(instructions)?.[1];
    expect(tag, instructions).toBeTruthy();

    const names = async () => (await agent!.client.listTools()).tools.map((t) => t.name);
    await expect.poll(names).toEqual(expect.arrayContaining([`${label}__search_products`, `${label}__get_cart`, `${label}__check_out`]));
    const listed = (await agent.client.listTools()).tools;
    expect(listed.find((t) => t.name === `${label}__search_products`)).toMatchObject({
      description: expect.stringMatching(new RegExp(`^On ${host.replace(/\./g, '\\.')} \\(tab “.+”\\): Search the shop`)),
      inputSchema: { type: 'object', required: ['query'] },
      annotations: { readOnlyHint: true },
    });
    expect(listed.some((t) => !t.name.startsWith(`${label}__`))).toBe(false);

    // A read-only tool runs without a question; its result is page data in the client's own delimiter.
    const found = await agent.client.callTool({ name: `${label}__search_products`, arguments: { query: 'mug' } });
    expect(found.isError).toBeFalsy();
    const foundText = resultText(found);
    expect(foundText.startsWith(`<${tag} tool="${label}__search_products" source="page">`)).toBe(true);
    expect(foundText).toContain('Stoneware Mug');

    // The shop moves to a product page: its tools change (add_to_cart appears), and the client hears it.
    const heard = agent.listChanged();
    const opened = await agent.client.callTool({ name: `${label}__open_product`, arguments: { productId: 'ceramic-mug' } });
    expect(resultText(opened)).toContain('Opened Stoneware Mug');
    await expect.poll(() => agent!.listChanged()).toBeGreaterThan(heard);
    await expect.poll(names).toContain(`${label}__add_to_cart`);

    // A tool that is not read-only asks in the panel, in the client's name and with its arguments; the client waits.
    const adding = agent.client.callTool({ name: `${label}__add_to_cart`, arguments: { quantity: 2 } });
    const question = panel.locator('.sharing-question');
    await expect(question).toContainText(`e2e-desktop-agent (desktop agent) asks: Allow add_to_cart on ${host}?`);
    await expect(question).toContainText('"quantity": 2');
    await question.getByRole('button', { name: 'Allow once' }).click();
    const added = await adding;
    expect(added.isError, resultText(added)).toBeFalsy();
    expect(resultText(added)).toContain('Added 2 × Stoneware Mug');
    await expect(shop.locator('#cart-count')).toHaveText('2');

    // Deny is an MCP tool error, and nothing runs.
    const denied = agent.client.callTool({ name: `${label}__add_to_cart`, arguments: { quantity: 5 } });
    await question.getByRole('button', { name: 'Deny' }).click();
    const refused = await denied;
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toMatch(/^Error \[cancelled\]: The person declined to run add_to_cart/);
    await expect(shop.locator('#cart-count')).toHaveText('2');

    // The panel's timeline marks the bridge's calls with the client's name.
    await panel.getByRole('button', { name: 'Develop' }).click();
    await expect(panel.locator('.timeline-entry').filter({ hasText: 'add_to_cart' }).first()).toContainText(
      'Desktop agent: e2e-desktop-agent',
    );

    // Another site's tools are out of reach, even by a name made the bridge's way.
    const notShared = await agent.client.callTool({ name: `${siteLabel(otherSite)}__get_json`, arguments: {} });
    expect(notShared.isError).toBe(true);
    expect(resultText(notShared)).toMatch(/^Error \[unknown_tool\]: No shared tool is named/);

    // Stop sharing: the tools leave the list, and a call by a name the client had is refused, saying why.
    const beforeStop = agent.listChanged();
    await panel.locator('.sharing-here').getByRole('button', { name: 'Stop sharing' }).click();
    await expect.poll(() => agent!.listChanged()).toBeGreaterThan(beforeStop);
    expect(await names()).toEqual([]);
    const stopped = await agent.client.callTool({ name: `${label}__get_cart`, arguments: {} });
    expect(resultText(stopped)).toMatch(/is no longer shared with desktop agents/);
  } finally {
    await agent?.close();
    await browser.close();
  }
});

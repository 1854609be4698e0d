import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from '@playwright/test';
import { launchExtension, openSidePanel, tabIdOf, toolCard } from './browser';
import { expect, openWithPanel, sendFromPanel, test, useCloud } from './sidepanel-helpers';

test.describe.configure({ timeout: 120_000 });

test('the conversation survives a service worker restart and a browser restart (the tab comes back under a new id)', async ({
  server,
  provider,
}) => {
  const profile = mkdtempSync(join(tmpdir(), 'webmcp-agent-restart-'));
  try {
    let { context, extensionId, sw } = await launchExtension({ profile });
    await useCloud(sw, provider);
    provider.script({ type: 'reply', text: 'First answer.' }, { type: 'reply', text: 'Second answer.' });
    const shopUrl = `${server.url}/demo/`;
    const shop = await context.newPage();
    await shop.goto(shopUrl);
    const firstTab = await tabIdOf(sw, shopUrl);
    let panel = await openSidePanel(context, extensionId, firstTab);
    await panel.getByRole('textbox', { name: 'Message' }).fill('First question');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.locator('.conversation').getByText('First answer.')).toBeVisible({ timeout: 30_000 });

    // Stop the service worker: the host (offscreen document) keeps the run state; storage and the page bridge
    // come back with the worker on the next message.
    const cdp = await context.newCDPSession(panel);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await panel.reload();
    await expect(panel.locator('.conversation').getByText('First answer.')).toBeVisible({ timeout: 30_000 });
    await panel.getByRole('textbox', { name: 'Message' }).fill('Second question');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.locator('.conversation').getByText('Second answer.')).toBeVisible({ timeout: 30_000 });
    await untilStored(sw, 'Second answer.');

    // Browser restart with the same profile. Tab ids start over: the shop comes back under a new id, and the
    // old id now belongs to nobody (or to a stranger).
    await context.close();
    ({ context, extensionId, sw } = await launchExtension({ profile }));
    const filler = await context.newPage();
    await filler.goto(`${server.url}/plain.html`);
    const again = await context.newPage();
    await again.goto(shopUrl);
    const secondTab = await tabIdOf(sw, shopUrl);
    const plainTab = await tabIdOf(sw, `${server.url}/plain.html`);
    // The restarted browser numbers tabs afresh: the shop's old id went to another tab, or to none.
    expect(secondTab).not.toBe(firstTab);
    panel = await openSidePanel(context, extensionId, secondTab);
    await expect(panel.locator('.conversation').getByText('Second answer.')).toBeVisible({ timeout: 30_000 });
    await expect(panel.locator('.conversation').getByText('First question')).toBeVisible();
    // Another page does not inherit it.
    const other = await openSidePanel(context, extensionId, plainTab);
    await expect(other.getByRole('heading', { name: 'What should the agent do here?' })).toBeVisible({ timeout: 30_000 });
    await context.close();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
});

test('a panel whose agent host went away brings it back and carries on', async ({
  context,
  server,
  provider,
  serviceWorker,
  openSidePanel,
}) => {
  await useCloud(serviceWorker, provider);
  provider.script({ type: 'reply', text: 'Before.' }, { type: 'reply', text: 'After.' });
  const shop = await context.newPage();
  await shop.goto(`${server.url}/demo/`);
  const panel = await openSidePanel(shop);
  await panel.getByRole('textbox', { name: 'Message' }).fill('One');
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.locator('.conversation').getByText('Before.')).toBeVisible({ timeout: 30_000 });
  await untilStored(serviceWorker, 'Before.');
  // The offscreen document is closed (Chrome may do this; a crash does too).
  await serviceWorker.evaluate(() => chrome.offscreen.closeDocument());
  await panel.getByRole('textbox', { name: 'Message' }).fill('Two');
  await expect(panel.getByRole('button', { name: 'Send' })).toBeEnabled({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.locator('.conversation').getByText('After.')).toBeVisible({ timeout: 30_000 });
  await expect(panel.locator('.conversation').getByText('Before.')).toBeVisible();
});

test('a call waiting when the service worker stops ends with the router line’s one error; the next call asks on a new line', async ({
  context,
  server,
  provider,
  serviceWorker,
  tabIdOf: tabOf,
  openSidePanel: openPanel,
}) => {
  const prompt = 'Review the form on the page and press Submit.';
  await useCloud(serviceWorker, provider);
  provider.script(
    { type: 'reply', toolCalls: [{ name: 'send_message', input: { message: 'Hello' } }] },
    { type: 'reply', text: 'The call did not finish.' },
    { type: 'reply', toolCalls: [{ name: 'send_message', input: { message: 'Again' } }] },
  );
  const { panel } = await openWithPanel(
    { context, serviceWorker, tabIdOf: tabOf, openSidePanel: openPanel },
    `${server.url}/declarative.html`,
    ['send_message', 'subscribe'],
  );
  // A form's call waits for the person: the agent host's ask is pending on its line to the router.
  await sendFromPanel(panel, 'Send the shop a hello');
  const first = toolCard(panel, 'send_message').first();
  await first.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
  await expect(first.getByRole('group', { name: prompt })).toBeVisible({ timeout: 30_000 });
  // Chrome stops the service worker (as it may an idle one, or on an update): the line closes.
  const cdp = await context.newCDPSession(panel);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await expect(first).toContainText('The extension background went away before it answered.', { timeout: 30_000 });
  await expect(panel.locator('.conversation').getByText('The call did not finish.')).toBeVisible({ timeout: 30_000 });
  // The next call: the host asks for a line, which wakes a fresh worker; the call's wait comes back on the new line.
  await sendFromPanel(panel, 'Try again');
  const second = toolCard(panel, 'send_message').nth(1);
  await second.getByRole('button', { name: 'Allow once' }).click({ timeout: 30_000 });
  await expect(second.getByRole('group', { name: prompt })).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(second.locator('.tool-state')).toHaveText('cancelled');
});

/**
 * Waits until a stored conversation holds `text`. The host tells the panel a run ended before it writes the
 * conversation (the answer shows without waiting for storage): a host or browser that goes at once keeps what was
 * written, so a test that stops one lets the write land first.
 */
async function untilStored(serviceWorker: Worker, text: string): Promise<void> {
  await expect
    .poll(() =>
      serviceWorker.evaluate(
        async (wanted) =>
          Object.entries(await chrome.storage.local.get(null)).some(
            ([key, value]) => key.startsWith('conversation:') && JSON.stringify(value).includes(wanted),
          ),
        text,
      ),
    )
    .toBe(true);
}

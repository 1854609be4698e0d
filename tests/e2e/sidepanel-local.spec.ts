import { buildTestModel } from '../../scripts/make-test-model';
import { startModelHost } from '../servers/model-host';
import { toolCard } from './browser';
import { expect, expectAccessible, openShopWithPanel, screenshot, test } from './sidepanel-helpers';

test.describe.configure({ timeout: 180_000 });

/** The catalog's recommended model, impersonated by the scripted test model on a loopback model host. */
const MODEL_ID = 'onnx-community/Qwen3-0.6B-ONNX';

test('an on-device conversation: the person starts the download, then the real engine calls a page tool and answers', async ({
  context,
  server,
  serviceWorker,
  openSidePanel,
}) => {
  // The scripted model searches the shop, then answers from the result; "ramble" makes it talk until stopped.
  const host = await startModelHost({
    [MODEL_ID]: buildTestModel({
      reply: '<tool_call>\n{"name": "search_products", "arguments": {"query": "mug"}}\n</tool_call>',
      afterToolResult: 'The shop has a Stoneware Mug for $22.00.',
      triggers: [{ word: 'ramble', reply: 'and so on, ', loop: true }],
      // The test tokenizer spends a token per byte: the shop's five tools, the page-data rule and a search result
      // need more than 4,096 of them by the second step.
      contextTokens: 8192,
    }),
  });
  try {
    await serviceWorker.evaluate(
      (modelHost) => chrome.storage.local.set({ 'settings.mode': 'local', 'settings.local': { modelHost } }),
      host.url.replace(/\/$/, ''),
    );
    const { panel, shop } = await openShopWithPanel(context, server.url, openSidePanel);
    await panel.setViewportSize({ width: 400, height: 720 });
    const download = panel.getByRole('button', { name: /^Download/ });
    await expect(download).toBeVisible({ timeout: 30_000 });
    // Nothing is fetched before the person's click.
    expect(host.downloads()).toBe(0);
    await screenshot(panel, 'panel-download-card');
    await expectAccessible(panel);
    host.slow('model_q4.onnx', { chunkBytes: 256, delayMs: 200 });
    await download.click();
    await expect(panel.getByRole('progressbar', { name: 'Download progress' })).toBeVisible({ timeout: 20_000 });
    await screenshot(panel, 'panel-downloading');
    // Cancel puts the card back; a second click starts again.
    await panel.getByRole('button', { name: 'Cancel download' }).click();
    await expect(download).toBeVisible({ timeout: 20_000 });
    host.slow('model_q4.onnx');
    await download.click();
    await expect(panel.locator('.status-card')).toHaveCount(0, { timeout: 120_000 });

    await panel.getByRole('textbox', { name: 'Message' }).fill('Find a mug for me');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(toolCard(panel, 'search_products').locator('.tool-state')).toHaveText('done', { timeout: 60_000 });
    await expect(panel.locator('.conversation .markdown').last()).toContainText('Stoneware Mug', { timeout: 60_000 });
    await expect(shop).toHaveURL(/#\/search\?q=mug/);
    await screenshot(panel, 'panel-local-conversation');

    // Stop a reply that would never end (in a new chat), then the conversation is still there after a reload.
    await panel.getByRole('button', { name: 'New chat' }).click();
    await expect(panel.locator('.conversation').getByText('Find a mug for me')).toHaveCount(0);
    await panel.getByRole('textbox', { name: 'Message' }).fill('ramble please');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByRole('button', { name: 'Stop' })).toBeVisible();
    await panel.getByRole('button', { name: 'Stop' }).click();
    await expect(panel.getByRole('heading', { name: 'Stopped' })).toBeVisible({ timeout: 30_000 });
    await panel.reload();
    await expect(panel.locator('.conversation').getByText('ramble please')).toBeVisible();
    await expect(panel.getByRole('heading', { name: 'Stopped' })).toBeVisible();
  } finally {
    await host.close();
  }
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchExtension } from './browser';
import { expect, test } from './fixtures';
import { openPageWithPanel, Q4_FILE, recordStatusCards, send, startTestModelHost, statusLog } from './local-helpers';

test.describe.configure({ timeout: 240_000 });
test.skip(({ nativeWebMCP }) => nativeWebMCP, 'Model download and cache do not depend on native WebMCP: the polyfill project covers them.');

const SCRIPT = { reply: 'Hello from the test model.', afterToolResult: 'Done.' };

test("the model downloads from the options page's host with progress, is cached, and a restarted browser loads it from the cache", async ({
  server,
}, testInfo) => {
  // A tokenizer of realistic size, so that loading the model from the cache lasts long enough to be seen (the host
  // sends the panel at most ten updates a second).
  const host = await startTestModelHost(SCRIPT, { tokenizerBytes: 32 * 1024 * 1024 });
  const profile = mkdtempSync(join(tmpdir(), 'webmcp-agent-local-cache-'));
  try {
    let { context, sw, extensionId } = await launchExtension({ profile });
    await recordStatusCards(context);

    // The person points the extension at the loopback model host on the options page.
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/options.html`);
    const row = options.locator('li', { has: options.getByRole('radio', { name: /Qwen3 0\.6B/ }) });
    await expect(row.getByText('Not downloaded')).toBeVisible({ timeout: 30_000 });
    await options.getByLabel('Download host', { exact: true }).fill(host.url);
    await options.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(options.getByText('Saved.', { exact: true })).toBeVisible();

    const pageUrl = `${server.url}/imperative.html`;
    let { panel } = await openPageWithPanel(context, sw, extensionId, pageUrl);
    await expect(panel.getByRole('button', { name: /^Download/ })).toBeVisible({ timeout: 30_000 });
    expect(host.downloads()).toBe(0);

    // Slow files, so the card shows the bar at its start and moving (the host sends the panel at most ten
    // updates a second, the latest of each tenth).
    host.slow('.json', { chunkBytes: 4 * 1024 * 1024, delayMs: 300 });
    host.slow(Q4_FILE, { chunkBytes: 1024, delayMs: 200 });
    await panel.getByRole('button', { name: /^Download/ }).click();
    try {
      await expect(panel.locator('.status-card')).toHaveCount(0, { timeout: 60_000 });
    } catch (error) {
      // What the card went through and what the host answered, for whoever reads the failure.
      const seen = { cards: await statusLog(panel), card: await panel.locator('.status-card').textContent(), requests: host.requests };
      console.log('download did not finish:', JSON.stringify(seen));
      await testInfo.attach('download-state', { body: JSON.stringify(seen, null, 2), contentType: 'application/json' });
      throw error;
    }
    const first = await statusLog(panel);
    const bars = first.filter((s) => s.heading === 'Downloading the model').map((s) => s.value as number);
    testInfo.annotations.push({ type: 'download progress (%)', description: bars.join(' ') });
    expect(bars[0]).toBe(0);
    expect(bars.every((v, i) => i === 0 || v >= bars[i - 1])).toBe(true);
    // The bar moved through the download rather than jumping to the end.
    expect(bars.filter((v) => v > 0 && v < 90).length).toBeGreaterThanOrEqual(3);
    expect(bars.at(-1)).toBeGreaterThanOrEqual(90);
    expect(first.map((s) => s.heading)).not.toContain('Loading the model');
    expect(host.downloads(Q4_FILE)).toBe(1);
    expect(host.downloads('tokenizer.json')).toBe(1);
    host.slow('.json');
    host.slow(Q4_FILE);

    await send(panel, 'Hello there');
    await expect(panel.locator('.conversation').getByText('Hello from the test model.')).toBeVisible({ timeout: 60_000 });

    // The options page now shows the model as downloaded, with the space it takes.
    await options.reload();
    await expect(row.getByText(/^Downloaded · /)).toBeVisible({ timeout: 30_000 });
    await expect(options.getByText(/^Downloaded models take /)).toBeVisible();

    // A new browser on the same profile: a fresh agent host and engine Worker, the same model cache.
    const requestsBefore = host.requests.length;
    await context.close();
    ({ context, sw, extensionId } = await launchExtension({ profile }));
    await recordStatusCards(context);
    ({ panel } = await openPageWithPanel(context, sw, extensionId, pageUrl));
    await expect(panel.locator('.conversation').getByText('Hello from the test model.')).toHaveCount(1);
    await expect(panel.getByRole('textbox', { name: 'Message' })).toBeEnabled({ timeout: 30_000 });
    await expect(panel.getByRole('button', { name: /^Download/ })).toHaveCount(0);
    const sent = Date.now();
    await send(panel, 'Hello again');
    // The conversation came back with the tab; the new answer is the second one.
    await expect(panel.locator('.conversation').getByText('Hello from the test model.')).toHaveCount(2, {
      timeout: 60_000,
    });
    testInfo.annotations.push({ type: 'first reply after restart (ms)', description: String(Date.now() - sent) });
    const second = await statusLog(panel);
    testInfo.annotations.push({
      type: 'status cards after restart',
      description: JSON.stringify(second.filter((s) => s.heading !== null)),
    });
    const headings = second.map((s) => s.heading);
    expect(headings).toContain('Loading the model');
    expect(headings).not.toContain('Downloading the model');
    expect(headings).not.toContain('Download the model');
    const after = host.requests.slice(requestsBefore);
    testInfo.annotations.push({ type: 'model host requests after restart', description: JSON.stringify(after) });
    // Not a download, nor even a size probe: everything came from the cache.
    expect(after).toEqual([]);

    const optionsAgain = await context.newPage();
    await optionsAgain.goto(`chrome-extension://${extensionId}/options.html`);
    await expect(
      optionsAgain.locator('li', { has: optionsAgain.getByRole('radio', { name: /Qwen3 0\.6B/ }) }).getByText(/^Downloaded · /),
    ).toBeVisible({ timeout: 30_000 });

    // "After that it works offline": with the model host gone, a third browser still loads the model and answers.
    await host.close();
    await context.close();
    ({ context, sw, extensionId } = await launchExtension({ profile }));
    ({ panel } = await openPageWithPanel(context, sw, extensionId, pageUrl));
    await expect(panel.locator('.conversation').getByText('Hello from the test model.')).toHaveCount(2);
    await send(panel, 'Hello offline');
    await expect(panel.locator('.conversation').getByText('Hello from the test model.')).toHaveCount(3, {
      timeout: 60_000,
    });
    await context.close();
  } finally {
    await host.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

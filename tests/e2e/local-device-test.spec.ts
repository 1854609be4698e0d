import { expect, test } from './fixtures';
import { downloadModel, MODEL_ID, openPageWithPanel, startTestModelHost, useModelHost } from './local-helpers';

test.describe.configure({ timeout: 180_000 });
test.skip(({ nativeWebMCP }) => nativeWebMCP, 'The device test does not depend on native WebMCP: the polyfill project covers it.');

// A reply of a few dozen tokens, so the decode rate is timed over more than one token.
const SCRIPT = {
  reply: 'I will search the catalogue for a waterproof hiking jacket in size M, dark green or navy, under 150 euros.',
  afterToolResult: 'Done.',
};

test('"Test this device" runs the fixed prompt through the engine Worker, shows its figures on the options page and in the panel\'s picker', async ({
  context,
  server,
  serviceWorker,
  extensionId,
  openOptions,
}, testInfo) => {
  const host = await startTestModelHost(SCRIPT);
  try {
    await useModelHost(serviceWorker, host);
    const { panel } = await openPageWithPanel(context, serviceWorker, extensionId, `${server.url}/imperative.html`);
    await expect(panel.getByRole('button', { name: /^Download/ })).toBeVisible({ timeout: 30_000 });
    await downloadModel(panel);
    const picker = panel.getByRole('combobox', { name: 'Model' });
    const pickedOption = picker.locator('option', { hasText: /^Qwen3 0\.6B/ });
    await expect(pickedOption).toHaveText(/downloaded$/);

    const options = await openOptions();
    const row = options.locator('li', { has: options.getByRole('radio', { name: /Qwen3 0\.6B/ }) });
    await expect(row.getByText(/^Downloaded · /)).toBeVisible({ timeout: 30_000 });
    // A model that is not downloaded offers no test.
    await expect(options.getByRole('button', { name: /^Test this device with / })).toHaveCount(1);

    await row.getByRole('button', { name: 'Test this device with Qwen3 0.6B' }).click();
    const line = row.getByText(/^Tested on this device \(/);
    await expect(line).toBeVisible({ timeout: 120_000 });
    const text = (await line.textContent()) ?? '';
    testInfo.annotations.push({ type: 'device test (options page)', description: text });
    // The figures the engine measured: a prompt of about 1,000 tokens, its first token, the decode rate, the memory
    // with what it counts.
    const prompt = Number(/\(([\d,]+)-token prompt\)/.exec(text)?.[1].replace(/,/g, ''));
    expect(prompt).toBeGreaterThan(500);
    expect(text).toMatch(/First token in [\d.]+ s/);
    expect(text).toMatch(/[\d.]+ tokens\/s writing/);
    expect(text).toMatch(/held \(the weights on this device plus the KV cache\)/);
    await expect(row.getByRole('alert')).toHaveCount(0);

    // Kept in the settings, keyed by model and device, with the date.
    const stored = await serviceWorker.evaluate(
      async () => (await chrome.storage.local.get('settings.deviceTests'))['settings.deviceTests'],
    );
    const results = Object.values(stored as Record<string, { modelId: string; device: string; testedAt: string; tokensPerSecond: number }>);
    expect(results).toHaveLength(1);
    expect(results[0].modelId).toBe(MODEL_ID);
    expect(Date.parse(results[0].testedAt)).toBeGreaterThan(Date.now() - 10 * 60_000);
    testInfo.annotations.push({ type: 'device test (stored)', description: JSON.stringify(stored) });

    // The panel that was open all along hears it: its picker shows the speed next to the model.
    await expect(pickedOption).toHaveText(/ · [\d.]+ tok\/s on this device$/);

    // And it survives a reload of the options page (read back from storage, not the page's memory).
    await options.reload();
    await expect(
      options.locator('li', { has: options.getByRole('radio', { name: /Qwen3 0\.6B/ }) }).getByText(/^Tested on this device \(/),
    ).toHaveText(text, {
      timeout: 30_000,
    });
  } finally {
    await host.close();
  }
});

/**
 * The on-device engine in the built extension (.output/chrome-mv3, from `npx wxt build`), headless Chromium, with the
 * scripted test model on a loopback model host: the person's figures rather than the engine's.
 *   - download: click on Download until the panel is ready (the test model is 20 KB: this is the fixed cost of
 *     probing, caching, starting ORT and creating the session, not bandwidth);
 *   - answer: a question until the answer is shown, through one page-tool call (two generations);
 *   - stop: click on Stop during a long reply until the panel says "Stopped";
 *   - cached: after a browser restart, a question until its answer, the model read from the cache.
 * On WASM and on WebGPU (SwiftShader: proves the path, not GPU speed). Medians of RUNS fresh profiles.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { buildTestModel } from '../scripts/make-test-model';
import { startModelHost } from '../tests/servers/model-host';
import { EXTENSION_DIR as EXTENSION, launchExtension, openSidePanel, tabIdOf } from '../tests/e2e/browser';
import { startStaticServer } from '../tests/servers/static-server';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MODEL_ID = 'onnx-community/Qwen3-0.6B-ONNX';
const SCRIPT = {
  reply: '<tool_call>\n{"name": "counter_increment", "arguments": {"n": 1}}\n</tool_call>',
  afterToolResult: 'Done: the counter went up.',
  triggers: [{ word: 'ramble', reply: 'and so on, ', loop: true }],
  contextTokens: 4096,
};

/** The built extension on `profile`, with WebGPU when `gpu`. */
async function launch(profile: string, gpu: boolean): Promise<{ context: BrowserContext; sw: Worker; id: string }> {
  const { context, sw, extensionId } = await launchExtension({ profile, extraArgs: gpu ? ['--enable-unsafe-webgpu'] : [] });
  return { context, sw, id: extensionId };
}

async function openPanel(context: BrowserContext, sw: Worker, id: string, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  const panel = await openSidePanel(context, id, await tabIdOf(sw, url));
  await panel.getByRole('button', { name: /^Tools \(\d+\)$/ }).waitFor({ timeout: 30_000 });
  return panel;
}

/** Milliseconds from `act` until `done` resolves. */
async function timed(act: () => Promise<void>, done: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await act();
  await done();
  return performance.now() - start;
}

async function ask(panel: Page, text: string): Promise<void> {
  await panel.getByRole('textbox', { name: 'Message' }).fill(text);
  await panel.getByRole('button', { name: 'Send' }).click();
}

async function once(gpu: boolean, pageUrl: string): Promise<Record<string, number>> {
  const host = await startModelHost({ [MODEL_ID]: buildTestModel(SCRIPT) });
  const profile = mkdtempSync(join(tmpdir(), 'webmcp-agent-bench-local-'));
  try {
    let { context, sw, id } = await launch(profile, gpu);
    await sw.evaluate(
      // "Never ask" for tools that are not consequential: the bench times the engine, not the person's click.
      (modelHost) =>
        chrome.storage.local.set({ 'settings.mode': 'local', 'settings.local': { modelHost }, 'settings.confirmation': 'never' }),
      host.url.replace(/\/$/, ''),
    );
    let panel = await openPanel(context, sw, id, pageUrl);
    const answers = panel.locator('.conversation .markdown');
    const download = await timed(
      () => panel.getByRole('button', { name: /^Download/ }).click({ timeout: 30_000 }),
      () => panel.locator('.status-card').waitFor({ state: 'detached', timeout: 120_000 }),
    );
    const answer = await timed(
      () => ask(panel, 'Add one to the counter'),
      () => answers.filter({ hasText: 'Done: the counter went up.' }).first().waitFor({ timeout: 60_000 }),
    );
    await ask(panel, 'ramble on');
    await panel.getByRole('button', { name: 'Stop' }).waitFor();
    const stop = await timed(
      () => panel.getByRole('button', { name: 'Stop' }).click(),
      () => panel.getByRole('heading', { name: 'Stopped' }).waitFor({ timeout: 30_000 }),
    );
    await context.close();
    ({ context, sw, id } = await launch(profile, gpu));
    panel = await openPanel(context, sw, id, pageUrl);
    await panel.getByRole('button', { name: 'New chat' }).click();
    const cached = await timed(
      () => ask(panel, 'Add one to the counter'),
      () => panel.locator('.conversation .markdown').filter({ hasText: 'Done: the counter went up.' }).first().waitFor({ timeout: 60_000 }),
    );
    await context.close();
    return { download, answer, stop, cached };
  } finally {
    await host.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!existsSync(join(EXTENSION, 'manifest.json'))) {
    console.log(`local-extension: no build at ${EXTENSION}; run \`npx wxt build\` first. Skipped.`);
    return;
  }
  const server = await startStaticServer({ '/': 'tests/fixtures/pages' });
  try {
    for (const gpu of [false, true]) {
      const runs: Record<string, number>[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(gpu, `${server.url}/imperative.html`));
      const figure = (k: string) => `${Math.round(median(runs.map((r) => r[k])))} ms`.padStart(9);
      console.log(
        `${gpu ? 'WebGPU (SwiftShader)' : 'WASM'.padEnd(20)}  download+load ${figure('download')}  ` +
          `question→answer (1 tool call) ${figure('answer')}  Stop→Stopped ${figure('stop')}  ` +
          `after restart, question→answer (cache) ${figure('cached')}   (median of ${RUNS})`,
      );
    }
  } finally {
    await server.close();
  }
}

await main();

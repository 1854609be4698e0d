/**
 * Helpers for the on-device E2E specs (local-*.spec.ts): the scripted test model served under the catalog's
 * recommended id by a loopback model host, a browser launched on a profile the test keeps (so a second launch finds
 * the model cache), and a recorder of what the panel's status card showed, since a card can come and go between two
 * looks.
 */
import type { BrowserContext, Page, Worker } from '@playwright/test';
import { buildTestModel, type TestModelScript } from '../../scripts/make-test-model';
import { type ModelHost, startModelHost } from '../servers/model-host';
import { openSidePanel, tabIdOf } from './browser';
import { expect } from './fixtures';

/** The catalog's recommended model, impersonated by the scripted test model. */
export const MODEL_ID = 'onnx-community/Qwen3-0.6B-ONNX';

/** The weight file the engine fetches for q4 (WASM, and WebGPU without shader-f16). */
export const Q4_FILE = 'onnx/model_q4.onnx';

/**
 * A model host serving the test model, written with `script`, as the recommended catalog model (or `modelId`). `tokenizerBytes`
 * pads tokenizer.json with trailing whitespace (still the same JSON) to about that size, so that reading the model
 * takes as long as a real one's (Qwen3's tokenizer.json is 11 MB) instead of a few milliseconds.
 */
export function startTestModelHost(
  script: TestModelScript,
  options: { tokenizerBytes?: number; modelId?: string } = {},
): Promise<ModelHost> {
  const files = buildTestModel({ contextTokens: 4096, ...script });
  const tokenizer = files.get('tokenizer.json') as string;
  if (options.tokenizerBytes && options.tokenizerBytes > tokenizer.length) {
    files.set('tokenizer.json', tokenizer + ' '.repeat(options.tokenizerBytes - tokenizer.length));
  }
  return startModelHost({ [options.modelId ?? MODEL_ID]: files });
}

/** Size in bytes of one of the test model's files. */
export function testModelFileSize(script: TestModelScript, file: string): number {
  const content = buildTestModel({ contextTokens: 4096, ...script }).get(file);
  if (content === undefined) throw new Error(`The test model has no file ${file}`);
  return typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
}

/**
 * On-device mode with models from `host` and `modelId` chosen (default: the model the test model impersonates), stored
 * as the options page stores it. A chosen model is what the person picked, so the device's recommendation (which
 * differs on WebGPU) does not switch to a model the host does not serve.
 */
export async function useModelHost(sw: Worker, host: ModelHost, modelId: string = MODEL_ID): Promise<void> {
  await sw.evaluate(
    ([modelHost, id]) => chrome.storage.local.set({ 'settings.mode': 'local', 'settings.local': { modelHost, modelId: id } }),
    [host.url.replace(/\/$/, ''), modelId] as const,
  );
}

/** Opens `url` and the side panel bound to its tab, once the panel lists the page's tools. */
export async function openPageWithPanel(
  context: BrowserContext,
  sw: Worker,
  extensionId: string,
  url: string,
): Promise<{ page: Page; panel: Page }> {
  const page = await context.newPage();
  await page.goto(url);
  const panel = await openSidePanel(context, extensionId, await tabIdOf(sw, url));
  await expect(panel.getByRole('button', { name: /^Tools \(\d+\)$/ })).toBeVisible({ timeout: 30_000 });
  return { page, panel };
}

/** One state of the panel's status card: its heading (null: no card) and its progress bar's value (0–100). */
export interface StatusSnapshot {
  heading: string | null;
  value: number | null;
}

/**
 * Record, in every side panel page of `context` opened from now on, each distinct state its status card takes
 * (read with {@link statusLog}). A MutationObserver sees every state the panel renders, however briefly.
 */
export async function recordStatusCards(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    if (!location.pathname.endsWith('/sidepanel.html')) return;
    const log: { heading: string | null; value: number | null }[] = [];
    (window as unknown as { __statusLog: typeof log }).__statusLog = log;
    const look = () => {
      const card = document.querySelector('.status-card');
      const heading = card?.querySelector('h2')?.textContent ?? null;
      const bar = card?.querySelector('progress');
      const value = bar ? Number(bar.getAttribute('value') ?? bar.value) : null;
      const last = log.at(-1);
      if (!last || last.heading !== heading || last.value !== value) log.push({ heading, value });
    };
    new MutationObserver(look).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
}

/** What {@link recordStatusCards} saw in this panel so far. */
export function statusLog(panel: Page): Promise<StatusSnapshot[]> {
  return panel.evaluate(() => (window as unknown as { __statusLog?: StatusSnapshot[] }).__statusLog ?? []);
}

/** Types `text` into the composer and sends it. */
export async function send(panel: Page, text: string): Promise<void> {
  await panel.getByRole('textbox', { name: 'Message' }).fill(text);
  await panel.getByRole('button', { name: 'Send' }).click();
}

/** Clicks the download card's button and waits until the model is ready (the status card is gone). */
export async function downloadModel(panel: Page): Promise<void> {
  await panel.getByRole('button', { name: /^Download/ }).click();
  await expect(panel.locator('.status-card')).toHaveCount(0, { timeout: 120_000 });
}

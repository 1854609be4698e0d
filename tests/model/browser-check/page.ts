/**
 * The host side of the browser check, in an extension page (as the offscreen document would be): start the Worker,
 * connect, then prepare, generate, stop, and report everything on window.__result.
 */
import { connectTransformersEngine } from '../../../lib/local/connect-transformers-engine';
import type { EnginePort } from '../../../lib/local/engine-messages';

declare const chrome: { runtime: { getURL: (path: string) => string } };

declare const browser: { runtime: { getURL: (path: string) => string } } | undefined;
const runtime = typeof browser !== 'undefined' ? browser.runtime : chrome.runtime;

const params = new URLSearchParams(location.search);
// Firefox opens this page from the background script, which knows no host: the runner writes it to a file.
const fileConfig = params.get('host') ? {} : ((await (await fetch('./check-config.json')).json()) as { host?: string; model?: string });
const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
const client = connectTransformersEngine(worker as unknown as EnginePort, {
  remoteHost: params.get('host') ?? fileConfig.host,
  wasmPaths: {
    wasm: runtime.getURL('/ort/ort-wasm-simd-threaded.asyncify.wasm'),
    ...(params.get('mjs') === '1' ? { mjs: runtime.getURL('/ort/ort-wasm-simd-threaded.asyncify.mjs') } : {}),
  },
  idleUnloadMs: 0,
});
const model = {
  id: params.get('model') ?? fileConfig.model ?? 'test/browser',
  label: 'Scripted',
  brief: 'Browser check.',
  bytes: { q4: 1 },
  callFormat: 'template' as const,
  toolsInline: false,
  toolCallEnd: '</tool_call>',
  contextTokens: 4096,
  hardware: '',
};

(async () => {
  const out: Record<string, unknown> = { crossOriginIsolated };
  try {
    const p = client.provider(model);
    out.device = await p.device();
    out.cachedBefore = await p.isCached();
    const progress: number[] = [];
    let t = performance.now();
    await p.prepare((v) => progress.push(v));
    out.prepareMs = Math.round(performance.now() - t);
    out.progress = progress;
    out.cachedAfter = await p.isCached();
    t = performance.now();
    out.reply = await p.generate({
      messages: [{ role: 'user', content: 'find socks' }],
      signal: new AbortController().signal,
    });
    out.generateMs = Math.round(performance.now() - t);
    out.stats = p.lastGeneration;
    const stop = new AbortController();
    const long = p.generate({
      messages: [{ role: 'user', content: 'ramble' }],
      maxNewTokens: 3000,
      signal: stop.signal,
      onText: () => stop.abort(),
    });
    out.stopped = await long.then(
      () => 'finished',
      (e: Error) => e.name,
    );
    out.stoppedAfterTokens = p.lastGeneration?.newTokens;
  } catch (e) {
    out.error = String((e as Error)?.stack ?? e);
  }
  (window as unknown as { __result: unknown }).__result = out;
  document.title = 'done';
})();

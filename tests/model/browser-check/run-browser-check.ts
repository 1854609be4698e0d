/**
 * Browser check of the engine wiring (not part of `npm test`; the extension E2E covers it there):
 * builds a minimal MV3 extension — one extension page starting the engine Worker, the ORT files from
 * scripts/copy-ort-wasm.ts, the same CSP and cross-origin isolation keys as wxt.config.ts — serves the scripted test
 * model from the loopback model host, and runs download → cache → generate → Stop in headless Chromium.
 *
 *   tsx tests/model/browser-check/run-browser-check.ts            # WASM (4 threads, cross-origin isolated)
 *   tsx tests/model/browser-check/run-browser-check.ts --webgpu   # WebGPU on SwiftShader
 *   tsx tests/model/browser-check/run-browser-check.ts --firefox  # firefox-esr: a background page, not isolated
 *
 * Exits non-zero when a check fails.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';
import { build } from 'vite';
import { copyOrtWasm } from '../../../scripts/copy-ort-wasm';
import { buildTestModel } from '../../../scripts/make-test-model';
import { extensionIdFromPage, launchBrowser } from '../../e2e/browser';
import { startModelHost } from '../../servers/model-host';

const here = new URL('.', import.meta.url).pathname;
const root = resolve(here, '../../..');
const out = resolve(root, 'tests/model/generated/browser-check');
const webgpu = process.argv.includes('--webgpu');
const firefox = process.argv.includes('--firefox');

await build({
  configFile: false,
  root: here,
  logLevel: 'warn',
  build: { outDir: out, emptyOutDir: true, target: 'esnext', rollupOptions: { input: join(here, 'page.html') } },
  worker: { format: 'es' },
});
copyOrtWasm(join(out, 'ort'), root);
const chromeManifest = {
  manifest_version: 3,
  name: 'engine check',
  version: '1.0',
  host_permissions: ['http://127.0.0.1/*'],
  content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" },
  cross_origin_embedder_policy: { value: 'require-corp' },
  cross_origin_opener_policy: { value: 'same-origin' },
};
// Firefox: no isolation keys; a background script opens the page (WebDriver BiDi cannot open moz-extension:).
const firefoxManifest = {
  manifest_version: 3,
  name: 'engine check',
  version: '1.0',
  host_permissions: ['http://127.0.0.1/*'],
  content_security_policy: chromeManifest.content_security_policy,
  background: { scripts: ['open-page.js'] },
  browser_specific_settings: { gecko: { id: 'engine-check@webmcp-agent.dev', strict_min_version: '142.0' } },
};
writeFileSync(join(out, 'manifest.json'), JSON.stringify(firefox ? firefoxManifest : chromeManifest));
writeFileSync(join(out, 'open-page.js'), "browser.tabs.create({ url: browser.runtime.getURL('page.html') });\n");

const files = buildTestModel({
  reply: '<tool_call>\n{"name": "search", "arguments": {}}\n</tool_call>',
  afterToolResult: 'Done.',
  triggers: [{ word: 'ramble', reply: 'more and ', loop: true }],
});
const host = await startModelHost({ 'test/browser-a': files, 'test/browser-b': files });
if (firefox) {
  writeFileSync(join(out, 'check-config.json'), JSON.stringify({ host: host.url, model: 'test/browser-a' }));
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: '/usr/bin/firefox-esr', headless: true });
  await browser.installExtension(out);
  let result: Record<string, unknown> | undefined;
  for (let i = 0; i < 600 && !result; i++) {
    // BiDi reports extension tabs as about:blank: ask every tab.
    for (const page of await browser.pages()) {
      result ??= (await page.evaluate('window.__result').catch(() => undefined)) as Record<string, unknown> | undefined;
    }
    if (!result) await new Promise((r) => setTimeout(r, 200));
  }
  await browser.close();
  await host.close();
  console.log('firefox:', JSON.stringify(result));
  const ok =
    result !== undefined &&
    !result.error &&
    (result.device as { device?: string })?.device === 'wasm' &&
    result.cachedAfter === true &&
    result.reply === '<tool_call>\n{"name": "search", "arguments": {}}\n</tool_call>' &&
    result.stopped === 'AbortError';
  console.log(ok ? 'all checks passed' : 'FAIL');
  process.exit(ok ? 0 : 1);
}
const { context, close } = await launchBrowser({
  extensionDir: out,
  extraArgs: webgpu ? ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'] : [],
});
// The check extension has no service worker: read its id from chrome://extensions.
const id = await extensionIdFromPage(context);

const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};
for (const [model, mjs] of [
  ['test/browser-a', '0'],
  ['test/browser-b', '1'],
]) {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log('page error:', e.message));
  const url = `chrome-extension://${id}/page.html?host=${encodeURIComponent(host.url)}&model=${model}&mjs=${mjs}`;
  const run = async () => {
    await page.goto(url);
    await page.waitForFunction(() => document.title === 'done', null, { timeout: 120_000 });
    return (await page.evaluate(() => (window as unknown as { __result: Record<string, unknown> }).__result)) as {
      [key: string]: unknown;
      device: { device: string; dtype: string; numThreads: number };
      progress: number[];
    };
  };
  const first = await run();
  console.log(`\n${model} (wasmPaths ${mjs === '1' ? 'wasm + mjs' : 'wasm only'}):`, JSON.stringify(first));
  check(!first.error, 'no error');
  check(first.device?.device === (webgpu ? 'webgpu' : 'wasm'), `device ${first.device?.device}`);
  check(first.crossOriginIsolated === true, 'cross-origin isolated');
  check(first.cachedBefore === false && first.cachedAfter === true, 'downloaded, then cached');
  check(first.progress?.[0] === 0 && first.progress?.at(-1) === 1, 'progress from 0 to 1');
  check(first.reply === '<tool_call>\n{"name": "search", "arguments": {}}\n</tool_call>', 'scripted reply');
  check(first.stopped === 'AbortError' && Number(first.stoppedAfterTokens) < 30, 'Stop ends a long generation');
  const before = host.downloads(`${model}/onnx/model_q4.onnx`);
  const second = await run();
  check(second.cachedBefore === true && !second.error, 'second load reads the cache');
  check(host.downloads(`${model}/onnx/model_q4.onnx`) === before, 'no second download');
}
await close();
await host.close();
if (failures.length) {
  console.error(`\n${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('\nall checks passed');

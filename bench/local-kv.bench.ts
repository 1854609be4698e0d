/**
 * KV-cache reuse and prompt size, in headless Chromium on WASM and on WebGPU (SwiftShader: proves the path, not GPU
 * speed), through the engine Worker an extension page starts, with each call-format family's test model
 * (scripts/make-test-model.ts) under its catalog id:
 *   - a three-step turn of the real agent loop (call, call, answer): per step, the prompt's tokens, the tokens the
 *     KV cache already held, and so the tokens prefilled with reuse; without reuse every prompt token is prefilled
 *     (that column is the prompt's size, the same run);
 *   - the step-1 prompt for the demo shop's tools and for a generated 30-tool page.
 * The test models' tokenizer is byte-level: one token per UTF-8 byte. Real BPE tokenizers average about 4 bytes per
 * token on such text, so the "≈ real" column divides by 4 (the estimate lib/local-agent/build-history.ts uses).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { copyOrtWasm } from '../scripts/copy-ort-wasm';
import { buildTestModel, type TestModelFamily } from '../scripts/make-test-model';
import { extensionIdFromPage, launchBrowser } from '../tests/e2e/browser';
import { startModelHost } from '../tests/servers/model-host';

const here = new URL('.', import.meta.url).pathname;
const root = resolve(here, '..');
const out = resolve(root, 'tests/model/generated/local-kv-bench');

const FAMILIES: { family: TestModelFamily; id: string; a: string; b: string }[] = [
  {
    family: 'qwen3',
    id: 'onnx-community/Qwen3-0.6B-ONNX',
    a: '<tool_call>\n{"name": "search", "arguments": {"query": "socks"}}\n</tool_call>',
    b: '<tool_call>\n{"name": "add_to_cart", "arguments": {"quantity": 1}}\n</tool_call>',
  },
  {
    family: 'qwen3.5',
    id: 'onnx-community/Qwen3.5-0.8B-ONNX',
    a: '<tool_call>\n<function=search>\n<parameter=query>\nsocks\n</parameter>\n</function>\n</tool_call>',
    b: '<tool_call>\n<function=add_to_cart>\n<parameter=quantity>\n1\n</parameter>\n</function>\n</tool_call>',
  },
  {
    family: 'lfm',
    id: 'LiquidAI/LFM2.5-1.2B-Instruct-ONNX',
    a: '<|tool_call_start|>[search(query="socks")]<|tool_call_end|>',
    b: '<|tool_call_start|>[add_to_cart(quantity=1)]<|tool_call_end|>',
  },
];

await build({
  configFile: false,
  root: join(here, 'local-kv'),
  logLevel: 'warn',
  build: { outDir: out, emptyOutDir: true, target: 'esnext', rollupOptions: { input: join(here, 'local-kv/page.html') } },
  worker: { format: 'es' },
});
copyOrtWasm(join(out, 'ort'), root);
writeFileSync(
  join(out, 'manifest.json'),
  JSON.stringify({
    manifest_version: 3,
    name: 'kv bench',
    version: '1.0',
    host_permissions: ['http://127.0.0.1/*'],
    content_security_policy: { extension_pages: "script-src 'self' 'wasm-unsafe-eval'; object-src 'self'" },
    cross_origin_embedder_policy: { value: 'require-corp' },
    cross_origin_opener_policy: { value: 'same-origin' },
  }),
);

const models: Record<string, Map<string, string | Uint8Array>> = {};
for (const f of FAMILIES) {
  // The second call comes when the first result holds the trigger word, the answer after the second result.
  models[f.id] = buildTestModel({
    family: f.family,
    reply: f.a,
    afterToolResult: 'All done.',
    triggers: [{ word: 'FOUNDIT', reply: f.b }],
    contextTokens: 32768,
  });
}
const host = await startModelHost(models);

type Step = { promptTokens: number; reusedTokens: number; newTokens: number; firstTokenMs: number };
type Result = {
  device?: { device: string; dtype: string };
  turns?: Record<string, Step[]>;
  demoTools?: number;
  demoStep1?: Step;
  thirtyStep1?: Step;
  error?: string;
};

async function run(webgpu: boolean): Promise<Result> {
  const { context, close } = await launchBrowser({
    extensionDir: out,
    extraArgs: webgpu ? ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'] : [],
  });
  try {
    const id = await extensionIdFromPage(context);
    const page = await context.newPage();
    const ids = FAMILIES.map((f) => f.id).join(',');
    await page.goto(`chrome-extension://${id}/page.html?host=${encodeURIComponent(host.url)}&models=${encodeURIComponent(ids)}`);
    await page.waitForFunction(() => document.title === 'done', null, { timeout: 300_000 });
    return (await page.evaluate(() => (window as unknown as { __result: Result }).__result)) as Result;
  } finally {
    await close();
  }
}

const approx = (bytes: number) => `≈${Math.round(bytes / 4)}`;
let failed = false;
for (const webgpu of [false, true]) {
  const r = await run(webgpu);
  console.log(`\n${webgpu ? 'WebGPU (SwiftShader)' : 'WASM'}: device ${r.device?.device}/${r.device?.dtype}`);
  if (r.error) {
    console.log(`error: ${r.error}`);
    failed = true;
    continue;
  }
  console.log('family   step  prompt  cached  prefilled with reuse  prefilled without reuse  new');
  for (const f of FAMILIES) {
    (r.turns?.[f.id] ?? []).forEach((s, i) => {
      console.log(
        `${f.family.padEnd(8)} ${String(i + 1).padStart(4)}  ${String(s.promptTokens).padStart(6)}  ${String(s.reusedTokens).padStart(6)}  ` +
          `${String(s.promptTokens - s.reusedTokens).padStart(20)}  ${String(s.promptTokens).padStart(23)}  ${String(s.newTokens).padStart(3)}`,
      );
    });
  }
  const d = r.demoStep1;
  const t = r.thirtyStep1;
  if (d) console.log(`step-1 prompt, demo shop (${r.demoTools} tools): ${d.promptTokens} bytes (${approx(d.promptTokens)} real tokens)`);
  if (t) console.log(`step-1 prompt, 30-tool page: ${t.promptTokens} bytes (${approx(t.promptTokens)} real tokens; budget 1,500)`);
}
await host.close();
if (failed) process.exit(1);

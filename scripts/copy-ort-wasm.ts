/**
 * Build step: copy onnxruntime-web's runtime files — from the exact version @huggingface/transformers resolved — into
 * public/ort/, so the extension ships them and never loads code from a CDN (MV3 forbids remote code).
 *
 * - ort-wasm-simd-threaded.asyncify.wasm: the engine for both the WASM and the WebGPU execution providers;
 * - ort-wasm-simd-threaded.asyncify.mjs: its loader, which ORT needs as a real file to start WASM threads.
 *
 * The provider is then given `wasmPaths: { wasm: runtime.getURL('/ort/ort-wasm-simd-threaded.asyncify.wasm'), mjs:
 * runtime.getURL('/ort/ort-wasm-simd-threaded.asyncify.mjs') }`. Usage: `tsx scripts/copy-ort-wasm.ts [outDir]`.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

export const ORT_FILES = ['ort-wasm-simd-threaded.asyncify.wasm', 'ort-wasm-simd-threaded.asyncify.mjs'] as const;

/** The onnxruntime-web folder that @huggingface/transformers itself imports, and its version. */
export function resolveOrtWeb(projectRoot = process.cwd()): { dir: string; version: string } {
  const fromProject = createRequire(join(projectRoot, 'package.json'));
  const transformersEntry = fromProject.resolve('@huggingface/transformers');
  const fromTransformers = createRequire(transformersEntry);
  // Walk up from onnxruntime-web's entry to its package.json (its exports map hides the file itself).
  let dir = dirname(fromTransformers.resolve('onnxruntime-web'));
  while (!existsSync(join(dir, 'package.json')) || readPackage(dir).name !== 'onnxruntime-web') {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('onnxruntime-web was not found next to @huggingface/transformers.');
    dir = parent;
  }
  const version = readPackage(dir).version as string;
  let transformersDir = dirname(transformersEntry);
  while (readPackageSafe(transformersDir)?.name !== '@huggingface/transformers') transformersDir = dirname(transformersDir);
  const wanted = (readPackage(transformersDir).dependencies as Record<string, string>)['onnxruntime-web'];
  if (wanted && /^\d/.test(wanted) && wanted !== version) {
    throw new Error(`@huggingface/transformers wants onnxruntime-web ${wanted}, but ${version} is installed.`);
  }
  return { dir, version };
}

function readPackage(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
}

function readPackageSafe(dir: string): Record<string, unknown> | undefined {
  return existsSync(join(dir, 'package.json')) ? readPackage(dir) : undefined;
}

/** Copy the ORT files into `outDir` (skipping ones already there with the same size); returns what it did. */
export function copyOrtWasm(outDir: string, projectRoot = process.cwd()): { version: string; files: string[] } {
  const { dir, version } = resolveOrtWeb(projectRoot);
  mkdirSync(outDir, { recursive: true });
  const files: string[] = [];
  for (const name of ORT_FILES) {
    const from = join(dir, 'dist', name);
    if (!existsSync(from)) throw new Error(`onnxruntime-web ${version} has no dist/${name}.`);
    const to = join(outDir, name);
    const size = statSync(from).size;
    if (!existsSync(to) || statSync(to).size !== size) copyFileSync(from, to);
    files.push(`${name} (${(size / 1024 / 1024).toFixed(1)} MB)`);
  }
  return { version, files };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname;
if (isMain) {
  const out = resolve(process.argv[2] ?? 'public/ort');
  const { version, files } = copyOrtWasm(out);
  console.log(`onnxruntime-web ${version} → ${out}: ${files.join(', ')}`);
}

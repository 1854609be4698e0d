import { join } from 'node:path';
import preact from '@preact/preset-vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'wxt';
import { CHROME_EXTENSION_KEY } from './bridge/src/extension-ids';
import { ORT_FILES, resolveOrtWeb } from './scripts/copy-ort-wasm';

/**
 * onnxruntime-web's bundle names its wasm with `new URL(…, import.meta.url)`, so Vite emits a second 26 MB copy.
 * The engine is always given `wasmPaths` pointing at ort/ (shipped below), so that copy is never loaded: drop it.
 */
function dropBundledOrtWasm(): Plugin {
  return {
    name: 'webmcp-agent:drop-bundled-ort-wasm',
    // Lib builds (Firefox's background, and Workers it starts) inline every new URL(…, import.meta.url) asset as
    // base64: make ORT's default wasm URL invisible to Vite so it is neither emitted nor inlined.
    transform(code, id) {
      if (!id.includes('onnxruntime-web')) return null;
      const out = code.replace(
        /new URL\((["'])(ort-wasm-simd-threaded[^"']*\.wasm)\1,\s*import\.meta\.url\)/g,
        (_m, _q, name) => `new URL(${JSON.stringify(name)}, self.location.href)`,
      );
      return out === code ? null : { code: out, map: null };
    },
    generateBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) if (/ort-wasm-simd-threaded.*\.wasm$/.test(name)) delete bundle[name];
    },
  };
}

/**
 * WXT wraps every unlisted script's `main()` in a try/catch that logs a crash through a logger which prints nothing
 * in production, and rethrows: about 420 B of every script, the two that every frame parses at document_start
 * included (their budget: docs/architecture.md, "The lazy bridge"). In a production build only, the wrapper is
 * replaced by what it amounts to there: run the plugins' setup, then `main()`, its result the script's.
 */
function slimUnlistedScriptWrapper(): Plugin {
  const entry = '\0virtual:wxt-unlisted-script-entrypoint?';
  return {
    name: 'webmcp-agent:slim-unlisted-script-wrapper',
    enforce: 'pre',
    apply: (_config, env) => env.mode === 'production' || env.mode === 'store',
    load(id) {
      if (!id.startsWith(entry)) return null;
      const input = JSON.stringify(id.slice(entry.length));
      return `import definition from ${input};\nimport { initPlugins } from "virtual:wxt-plugins";\ninitPlugins();\nexport default definition.main();\n`;
    },
  };
}

/**
 * One source, two builds: Chrome MV3 (side panel, offscreen agent host) and Firefox MV3
 * (sidebar, background page as agent host). Permissions are justified one by one in README.md.
 */
export default defineConfig({
  manifestVersion: 3,
  vite: (env) => {
    // Vite counts only NODE_ENV=production as a production build, and sets it for the mode `production` alone: the
    // store build must be that same build (Preact without its devtools hook), so it says so itself.
    if (env.mode === 'store') process.env.NODE_ENV = 'production';
    return {
      plugins: [preact(), dropBundledOrtWasm(), slimUnlistedScriptWrapper()],
      worker: { format: 'es' as const, plugins: () => [dropBundledOrtWasm()] },
    };
  },
  hooks: {
    // Ship ORT's runtime files from the exact onnxruntime-web that transformers.js resolved: no remote code.
    'build:publicAssets': (_wxt, files) => {
      const { dir } = resolveOrtWeb();
      for (const name of ORT_FILES) files.push({ absoluteSrc: join(dir, 'dist', name), relativeDest: `ort/${name}` });
    },
  },
  // `--mode store` (scripts/release.ts) is the build the stores get: no development `key`, and none of the tests'
  // hooks (entrypoints/background.ts). Every other build is the one the tests load.
  manifest: ({ browser, mode }) => ({
    name: 'WebMCP Agent',
    description: 'An agent for any page that exposes WebMCP tools: on-device, or in the cloud with your own key.',
    permissions: [
      'storage',
      'unlimitedStorage',
      // Loads the bridge into a frame once it shows WebMCP (docs/architecture.md, "The lazy bridge"), and
      // registers Chrome's page-world stub where the browser has no native WebMCP.
      'scripting',
      // The opt-in bridge to the person's desktop agents (bridge/, docs/security.md § 7): runtime.connectNative to
      // the local host `npm run bridge -- install` set up, and a notification when a desktop agent's call waits for
      // an answer while no panel shows that tab.
      'nativeMessaging',
      'notifications',
      ...(browser === 'firefox' ? [] : ['sidePanel', 'offscreen']),
    ],
    host_permissions: ['<all_urls>'],
    // What every frame runs at document_start: the stub (entrypoints/stub.ts), and on Firefox, which has no native
    // WebMCP, the page-world stub (Chrome registers that one at run time: lib/background/create-stub-sync.ts). These
    // are unlisted scripts, so that no content-script runtime comes with them.
    content_scripts: [
      // On Chrome also in documents of an opaque origin (data:, blob:, sandboxed frames), where Chrome's page-world
      // stub runs too (matchOriginAsFallback): a page-world stub whose wake nobody hears would hold the page's calls forever.
      {
        matches: ['<all_urls>'],
        js: ['stub.js'],
        run_at: 'document_start',
        all_frames: true,
        match_about_blank: true,
        ...(browser === 'firefox' ? {} : { match_origin_as_fallback: true }),
      },
      ...(browser === 'firefox'
        ? [
            {
              matches: ['<all_urls>'],
              js: ['page-stub.js'],
              run_at: 'document_start',
              all_frames: true,
              match_about_blank: true,
              world: 'MAIN',
            },
          ]
        : []),
    ],
    action: { default_title: 'Open WebMCP Agent' },
    content_security_policy: {
      // Every extension page: the agent host (Chrome's offscreen document, Firefox's background page) and its model
      // Worker call the person's provider and model host, which may be any https origin or a local http server
      // (Ollama, LM Studio). Nothing else loads from outside the extension. The side panel and the options page
      // narrow this further with their own <meta> policy (no connections at all): see README, Permissions.
      extension_pages: [
        "script-src 'self' 'wasm-unsafe-eval'",
        "object-src 'none'",
        "default-src 'self'",
        "connect-src 'self' https: http:",
        "img-src 'self'",
        "media-src 'none'",
        "font-src 'self'",
        "style-src 'self'",
        "frame-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
      ].join('; '),
    },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'webmcp-agent@webmcp-agent.dev',
              strict_min_version: '142.0',
              // What cloud mode sends to the provider the person chose (docs/privacy.md): their messages, what the
              // page's tools return, and the page's path and title. On-device mode sends none of it, but Firefox asks
              // consent at install for `required` only; asking at run time (`optional`) is not built yet.
              data_collection_permissions: { required: ['personalCommunications', 'websiteContent', 'browsingActivity'] },
            },
          },
        }
      : {
          // A stable id wherever the build is loaded from, so the native-messaging host manifest can name it
          // (bridge/src/extension-ids.ts). Only the public key: an unpacked extension needs no private one.
          ...(mode === 'store' ? {} : { key: CHROME_EXTENSION_KEY }),
          // Cross-origin isolation lets the offscreen agent host run multi-threaded WASM.
          cross_origin_embedder_policy: { value: 'require-corp' },
          cross_origin_opener_policy: { value: 'same-origin' },
        }),
  }),
});

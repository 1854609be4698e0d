import { connectTransformersEngine } from '../local/connect-transformers-engine';
import { createLocalAdapter, type LocalAdapter } from '../local/create-local-adapter';
import { createPromptApiProvider, type LanguageModelLike } from '../local/create-prompt-api-provider';
import type { EnginePort } from '../local/engine-messages';
import type { SettingsStore } from '../storage/settings-store';

/** What the agent host's context provides: both hosts (Chrome's offscreen document, Firefox's background page) pass these. */
interface LocalAdapterContext {
  settings: SettingsStore;
  /** Starts the engine Worker (the file differs per build; the protocol does not). */
  startWorker: () => EnginePort;
  /** The extension URL of a shipped file, e.g. runtime.getURL('/ort/…'). */
  getURL: (path: string) => string;
  /** Chrome's built-in Prompt API (globalThis.LanguageModel), where the browser has it. */
  languageModel?: LanguageModelLike;
  /** `navigator.deviceMemory` (GB) where the browser has it, for the model recommendation. */
  deviceMemoryGb?: number;
}

const ORT_WASM = '/ort/ort-wasm-simd-threaded.asyncify.wasm';
const ORT_MJS = '/ort/ort-wasm-simd-threaded.asyncify.mjs';

/**
 * The on-device adapter over an engine Worker: ORT's runtime files from the extension (no remote code), models from
 * the download host in the settings. A changed host applies to models not in memory yet, so the cached flags are
 * read again.
 */
export async function createLocalAdapterFromSettings({
  settings,
  startWorker,
  getURL,
  languageModel,
  deviceMemoryGb,
}: LocalAdapterContext): Promise<LocalAdapter> {
  const { local } = await settings.read();
  // "Test this device" results, as last read: the picker shows them, and a new one reaches the panels at once.
  let tests = await settings.deviceTests();
  const config = {
    wasmPaths: { wasm: getURL(ORT_WASM), mjs: getURL(ORT_MJS) },
    remoteHost: withTrailingSlash(local.modelHost),
  };
  const engine = connectTransformersEngine(startWorker(), config);
  const adapter = createLocalAdapter({
    provider: engine.provider,
    modelId: local.modelId,
    promptApi: createPromptApiProvider(languageModel),
    deviceTests: () => tests,
    ...(deviceMemoryGb ? { deviceMemoryGb } : {}),
  });
  let host = local.modelHost;
  settings.subscribe(async (next) => {
    const latest = await settings.deviceTests();
    if (JSON.stringify(latest) !== JSON.stringify(tests)) {
      tests = latest;
      if (next.local.modelHost === host) void adapter.refresh();
    }
    if (next.local.modelHost === host) return;
    host = next.local.modelHost;
    engine.configure({ ...config, remoteHost: withTrailingSlash(host) });
    void adapter.refresh();
  });
  return adapter;
}

function withTrailingSlash(host: string): string {
  return host.endsWith('/') ? host : `${host}/`;
}

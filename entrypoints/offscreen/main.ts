import { createToolBridgeClient } from '@/lib/background/create-tool-bridge-client';
import { createAgentHostRuntime } from '@/lib/host/create-agent-host-runtime';
import type { HostPort } from '@/lib/host/agent-host-deps';
import { createAgentStorageProxy } from '@/lib/messaging/agent-storage-proxy';
import { connectTransformersEngine } from '@/lib/local/connect-transformers-engine';
import { createLocalAdapter } from '@/lib/local/create-local-adapter';
import { createPromptApiProvider } from '@/lib/local/create-prompt-api-provider';
import type { EnginePort } from '@/lib/local/engine-messages';
import type { SettingsStore } from '@/lib/storage/settings-store';

// Chrome's agent host. chrome.runtime is the only extension API here: storage and page tools go through the
// background with runtime messages.
const onMessage = { addListener: (listener: (message: unknown) => void) => browser.runtime.onMessage.addListener((m) => void listener(m)) };
const send = (message: unknown) => browser.runtime.sendMessage(message);

const runtime = createAgentHostRuntime({
  storage: {
    local: createAgentStorageProxy('local', send, onMessage),
    session: createAgentStorageProxy('session', send, onMessage),
  },
  onConnect: browser.runtime.onConnect as unknown as { addListener(listener: (port: HostPort) => void): void },
  bridge: createToolBridgeClient({ sendMessage: send, onMessage: onMessage.addListener }),
  fetch: globalThis.fetch.bind(globalThis),
  createLocalAdapter: startLocalAdapter,
});

browser.runtime.onMessage.addListener((message: any, _sender, sendResponse) => {
  if (message?.type === 'host-ping') {
    sendResponse({ host: 'offscreen', crossOriginIsolated: globalThis.crossOriginIsolated });
    return false;
  }
  const answer = runtime.handleMessage(message);
  if (!answer) return false;
  void answer.then(sendResponse);
  return true;
});

/** The on-device adapter: the engine in a Worker, ORT's files from the extension, models from the chosen host. */
async function startLocalAdapter(settings: SettingsStore) {
  const { local } = await settings.read();
  const worker = new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module' });
  const remoteHost = (host: string) => (host.endsWith('/') ? host : `${host}/`);
  const config = {
    wasmPaths: {
      wasm: browser.runtime.getURL('/ort/ort-wasm-simd-threaded.asyncify.wasm' as any),
      mjs: browser.runtime.getURL('/ort/ort-wasm-simd-threaded.asyncify.mjs' as any),
    },
    remoteHost: remoteHost(local.modelHost),
  };
  const engine = connectTransformersEngine(worker as unknown as EnginePort, config);
  const adapter = createLocalAdapter({
    provider: engine.provider,
    modelId: local.modelId,
    promptApi: createPromptApiProvider((globalThis as any).LanguageModel),
  });
  // A new model host applies to models not in memory yet; the cached flags may differ there.
  let host = local.modelHost;
  settings.subscribe((next) => {
    if (next.local.modelHost === host) return;
    host = next.local.modelHost;
    engine.configure({ ...config, remoteHost: remoteHost(host) });
    void adapter.refresh();
  });
  return adapter;
}

import { createToolBridgeClient } from '@/lib/background/create-tool-bridge-client';
import { createAgentHostRuntime } from '@/lib/host/create-agent-host-runtime';
import { startLocalAdapter } from '@/lib/host/start-local-adapter';
import type { EnginePort } from '@/lib/local/engine-messages';
import type { HostPort } from '@/lib/host/agent-host-deps';
import { createAgentStorageProxy } from '@/lib/messaging/agent-storage-proxy';

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
  // The on-device engine runs in a Worker so this document stays responsive while the model generates.
  createLocalAdapter: (settings) =>
    startLocalAdapter({
      settings,
      startWorker: () => new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module' }) as unknown as EnginePort,
      getURL: (path) => browser.runtime.getURL(path as any),
      languageModel: (globalThis as any).LanguageModel,
      // The device's memory (GB, rounded by the browser) sizes the recommended model.
      deviceMemoryGb: (navigator as { deviceMemory?: number }).deviceMemory,
    }),
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

import { createRouterClient } from '@/lib/host/create-router-client';
import { createNativeLinkClient } from '@/lib/host/create-native-link-client';
import { isHostSender } from '@/lib/messaging/is-host-sender';
import { wireAgentHost } from '@/lib/agent-host-root/wire-agent-host';
import { createLocalAdapterFromSettings } from '@/lib/host/create-local-adapter-from-settings';
import type { EnginePort } from '@/lib/local/engine-messages';
import type { HostPort } from '@/lib/host/agent-host-deps';
import { createAgentStorageProxy } from '@/lib/messaging/agent-storage-proxy';
import type { RouterChannel } from '@/lib/messaging/router-messages';
import { type ChannelHandlers, handleMessage, sendMessage } from '@/lib/messaging/channel';
import { type HostChannel, isTabClosedMessage } from '@/lib/messaging/host-channel';

// Chrome's agent host. chrome.runtime is the only extension API here: storage goes through the background with
// runtime messages, page tools on the router's line (a runtime Port the service worker opens,
// lib/host/create-router-client.ts).
const extension = { id: browser.runtime.id, origin: browser.runtime.getURL('/') };
// Content scripts' runtime.sendMessage reaches this document too: only the extension's own contexts (the service
// worker's storage changes and bridge notices) are heard.
const fromExtension = (sender: Parameters<typeof isHostSender>[0]) => isHostSender(sender, extension.id, extension.origin);
const onMessage = {
  addListener: (listener: (message: unknown) => void) =>
    browser.runtime.onMessage.addListener((m, sender) => void (fromExtension(sender) && listener(m))),
};
const send = (message: unknown): Promise<unknown> => browser.runtime.sendMessage(message);

const runtime = wireAgentHost({
  storage: {
    local: createAgentStorageProxy('local', send, onMessage),
    session: createAgentStorageProxy('session', send, onMessage),
  },
  onConnect: browser.runtime.onConnect as unknown as { addListener(listener: (port: HostPort) => void): void },
  extension,
  bridge: createRouterClient({
    onConnect: browser.runtime.onConnect as unknown as Parameters<typeof createRouterClient>[0]['onConnect'],
    extension,
    serviceWorkerUrl: browser.runtime.getURL('/background.js'),
    callRouter: () => void sendMessage<RouterChannel, 'router/connect'>(send, 'router/connect', {}).catch(() => undefined),
    lastError: () => browser.runtime.lastError?.message,
  }),
  // The native Port to desktop agents lives in the service worker (this document has no connectNative).
  bridgeBrowser: createNativeLinkClient({ sendMessage: send, onMessage: onMessage.addListener }),
  fetch: globalThis.fetch.bind(globalThis),
  // The on-device engine runs in a Worker so this document stays responsive while the model generates.
  createLocalAdapter: (settings) =>
    createLocalAdapterFromSettings({
      settings,
      startWorker: () => new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module' }) as unknown as EnginePort,
      getURL: (path) => browser.runtime.getURL(path as any),
      languageModel: (globalThis as any).LanguageModel,
      // The device's memory (GB, rounded by the browser) sizes the recommended model.
      deviceMemoryGb: (navigator as { deviceMemory?: number }).deviceMemory,
    }),
});

// The service worker cannot see whether the browser has native WebMCP; this document can (extension pages get
// document.modelContext too). It keeps the page-world stub out of every page where there is (lib/background/create-stub-sync.ts).
void sendMessage<RouterChannel, 'router/native-webmcp'>(send, 'router/native-webmcp', {
  native: Boolean((document as { modelContext?: unknown }).modelContext),
}).catch(() => undefined);

const hostHandlers: ChannelHandlers<HostChannel> = {
  // A tab closed (the background tells): the host drops its session and the stored conversation.
  'host/tab-closed': (message) =>
    isTabClosedMessage(message)
      ? runtime.host.closeTab(message.tabId, { keepForRestore: message.keepForRestore }).then(
          () => true,
          () => false,
        )
      : false,
  'host/ping': () => ({ host: 'offscreen', crossOriginIsolated: globalThis.crossOriginIsolated }),
};

browser.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
  // Content scripts reach this document too: nothing they send is heard (the options page, the panel and the
  // service worker are the extension's own contexts).
  if (!fromExtension(sender)) return false;
  const answer = handleMessage(hostHandlers, message, undefined) ?? runtime.handleMessage(message, sender);
  if (!answer) return false;
  void answer.then(sendResponse);
  return true;
});

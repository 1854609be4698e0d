/**
 * Chrome's agent host is an offscreen document (entrypoints/offscreen): the background starts it (at install, at
 * the browser's start, and when a side panel that lost its host pings), relays it storage changes (settings saved
 * on the options page). Firefox's host is its background page.
 */
import { agentStorageChanged } from '../messaging/agent-storage-proxy';
import { isMessage } from '../messaging/channel';
import type { HostChannel } from '../messaging/host-channel';
import type { StorageChange } from '../messaging/storage-area';
import { ensureOffscreenDocument } from './ensure-offscreen-document';
import type { RuntimeMessageEvent } from './runtime-message-event';

/** The slice of Chrome this needs. */
interface OffscreenHostBrowser {
  runtime: {
    getContexts(filter: { contextTypes: 'OFFSCREEN_DOCUMENT'[] }): Promise<unknown[]>;
    getURL(path: string): string;
    sendMessage(message: unknown): Promise<unknown>;
    onMessage: RuntimeMessageEvent;
    onStartup: { addListener(listener: () => void): void };
    onInstalled: { addListener(listener: () => void): void };
  };
  offscreen: { createDocument(params: { url: string; reasons: 'WORKERS'[]; justification: string }): Promise<void> };
  storage: { onChanged: { addListener(listener: (changes: Record<string, StorageChange>, area: string) => void): void } };
}

/** Starts the host and keeps it; what `started` gives settles once its last start has. */
export function setUpOffscreenHost(browser: OffscreenHostBrowser): { started(): Promise<unknown> } {
  browser.storage.onChanged.addListener((changes, area) => {
    const message = area === 'local' ? agentStorageChanged(area, changes) : undefined;
    if (message) void browser.runtime.sendMessage(message).catch(() => {});
  });
  const offscreenApi = {
    hasDocument: async () => (await browser.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).length > 0,
    createDocument: (params: { url: string; reasons: string[]; justification: string }) =>
      browser.offscreen.createDocument(params as { url: string; reasons: 'WORKERS'[]; justification: string }),
  };
  let hostStart: Promise<unknown> = Promise.resolve();
  const ensureHost = () =>
    (hostStart = ensureOffscreenDocument(offscreenApi, browser.runtime.getURL('/offscreen.html')).catch(() => undefined));
  browser.runtime.onStartup.addListener(() => void ensureHost());
  // A side panel that lost its host pings before reconnecting: bring the host back if it is gone.
  browser.runtime.onMessage.addListener((message) => {
    if (isMessage<HostChannel, 'host/ping'>(message, 'host/ping')) void ensureHost();
    return false;
  });
  browser.runtime.onInstalled.addListener(() => void ensureHost());
  void ensureHost();
  return { started: () => hostStart };
}

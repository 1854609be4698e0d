import { describe, expect, it } from 'vitest';
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { createRuntimeMessageBus } from '../testing/runtime-message-bus';
import { setUpHostRequests } from './set-up-host-requests';

const extension = { id: 'ext-id', origin: 'chrome-extension://ext-id/' };
const offscreen = { id: 'ext-id', url: 'chrome-extension://ext-id/offscreen.html', origin: 'chrome-extension://ext-id' };
/** A content script: the extension's id, but a page's URL and origin, as the browser attests them. */
const contentScript = { id: 'ext-id', url: 'https://evil.test/', origin: 'https://evil.test', tab: { id: 1 }, frameId: 0 };

function start(nativeLink?: BridgeBrowser) {
  const bus = createRuntimeMessageBus();
  const storageAreas = { local: createMemoryStorageArea({ 'secret.apiKey.openai': 'sk-1' }), session: createMemoryStorageArea() };
  const reported: boolean[] = [];
  setUpHostRequests({
    onMessage: bus.onMessage,
    extension,
    storageAreas,
    nativeLink,
    nativeReported: async (native) => void reported.push(native),
  });
  return { bus, reported };
}

describe('setUpHostRequests', () => {
  it("answers, on Chrome, the agent host's storage, and leaves the router's questions to its line", async () => {
    const { bus } = start();
    // The router's questions ride the router's line (set-up-router-lines.ts): no runtime message reaches the router.
    expect(bus.send({ type: 'router/get-tools', tabId: 1 }, offscreen).kept).toBe(false);
    const stored = bus.send({ type: 'storage/get', area: 'local', keys: ['secret.apiKey.openai'] }, offscreen);
    await expect(stored.answer).resolves.toEqual({ ok: true, value: { 'secret.apiKey.openai': 'sk-1' } });
  });

  it('gives a content script nothing: not the storage, not the tools, not the native link', async () => {
    const opened: string[] = [];
    const link = { open: async () => void opened.push('open') } as unknown as BridgeBrowser;
    const { bus, reported } = start(link);
    for (const message of [
      { type: 'storage/get', area: 'local', keys: ['secret.apiKey.openai'] },
      { type: 'router/get-tools', tabId: 1 },
      { type: 'native-link/open' },
      { type: 'router/native-webmcp', native: true },
    ]) {
      const sent = bus.send(message, contentScript);
      expect(sent.kept).toBe(false);
      await expect(sent.answer).resolves.toBeUndefined();
    }
    expect(opened).toEqual([]);
    expect(reported).toEqual([]);
  });

  it("takes the host's word on native WebMCP only as a boolean, and answers nothing to it", async () => {
    const { bus, reported } = start();
    expect(bus.send({ type: 'router/native-webmcp', native: 'yes' }, offscreen).kept).toBe(false);
    expect(bus.send({ type: 'router/native-webmcp', native: true }, offscreen).kept).toBe(false);
    expect(reported).toEqual([true]);
  });

  it('serves the native link only where one is given (Chrome; Firefox calls it directly)', async () => {
    const without = start();
    expect(without.bus.send({ type: 'native-link/open' }, offscreen).kept).toBe(false);
    const link = { open: async () => ({ state: 'open' }) } as unknown as BridgeBrowser;
    const served = start(link);
    const sent = served.bus.send({ type: 'native-link/open' }, offscreen);
    expect(sent.kept).toBe(true);
    await expect(sent.answer).resolves.toEqual({ state: 'open' });
  });
});

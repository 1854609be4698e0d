import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { wireAgentHost } from './wire-agent-host';

const EXTENSION = { id: 'webmcp-agent-test-id', origin: 'chrome-extension://webmcp-agent-test-id/' };

function runtime(local = createMemoryStorageArea()) {
  return wireAgentHost({
    storage: { local, session: createMemoryStorageArea() },
    onConnect: { addListener: () => {} },
    extension: EXTENSION,
    bridge: {
      getTools: async (tabId) => ({ tabId, tools: [], page: {} }),
      callTool: async () => ({ content: [] }),
      subscribe: () => () => {},
    },
    fetch: async () => new Response('{}'),
  });
}

describe('wireAgentHost.handleMessage', () => {
  it('answers an options request from the options page, also when it is open in a tab', async () => {
    const answer = runtime().handleMessage(
      { type: 'options/list-local-models' },
      { id: EXTENSION.id, url: `${EXTENSION.origin}options.html`, origin: 'chrome-extension://webmcp-agent-test-id' },
    );
    expect(await answer).toEqual({ ok: true, models: [] });
  });

  it('gives a content script no answer at all, whatever it asks', () => {
    const contentScript = { id: EXTENSION.id, url: 'https://evil.test/', origin: 'https://evil.test' };
    expect(runtime().handleMessage({ type: 'options/list-cloud-models' }, contentScript)).toBeUndefined();
    expect(runtime().handleMessage({ type: 'options/test-connection' }, contentScript)).toBeUndefined();
    expect(runtime().handleMessage({ type: 'options/list-local-models' }, undefined)).toBeUndefined();
  });
});

describe('wireAgentHost adapters', () => {
  it('reads what the cloud adapter is built from once, and again only after a setting or a key changed in storage', async () => {
    const local = createMemoryStorageArea({
      'settings.mode': 'cloud',
      'settings.cloud': { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'm' },
      'secret.apiKey.openai-compatible': 'key-1',
    });
    const keyReads: string[] = [];
    const get = local.get.bind(local);
    local.get = (keys) => {
      keyReads.push(...[...keys].filter((key) => key.startsWith('secret.')));
      return get(keys);
    };
    const { host } = runtime(local);
    // Each run asks for the chosen adapter as the panels' summaries do: on Chrome each read is a message through the
    // service worker, and a busy browser makes it slow (issue 45).
    await host.adapters();
    const first = keyReads.length;
    expect(first).toBeGreaterThan(0);
    await host.adapters();
    await host.adapters();
    expect(keyReads).toHaveLength(first);
    // A key saved alone (no setting beside it) is still seen by the next run.
    await local.set({ 'secret.apiKey.openai-compatible': 'key-2' });
    await host.adapters();
    const afterKey = keyReads.length;
    expect(afterKey).toBeGreaterThan(first);
    // Conversations are saved all the time: they change nothing an adapter is built from.
    await local.set({ conversations: [] });
    await host.adapters();
    expect(keyReads).toHaveLength(afterKey);
  });
});

import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { wireAgentHost } from './wire-agent-host';

const EXTENSION = { id: 'webmcp-agent-test-id', origin: 'chrome-extension://webmcp-agent-test-id/' };

function runtime() {
  return wireAgentHost({
    storage: { local: createMemoryStorageArea(), session: createMemoryStorageArea() },
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

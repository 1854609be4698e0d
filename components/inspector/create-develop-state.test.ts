import { describe, expect, it, vi } from 'vitest';
import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import { createDevelopState } from './create-develop-state';
import type { InspectorStore } from './inspector-store';
import { fakeInspectorStore } from './inspector-store-fake';

const EVALS = JSON.stringify([
  { messages: [{ role: 'user', type: 'message', content: 'Find a mug' }], expectedCall: [{ functionName: 'search' }] },
  { messages: [{ role: 'user', type: 'message', content: 'Empty my cart' }], expectedCall: [{ functionName: 'clear_cart' }] },
]);

/** The store as the inspector sees it, following tab 5 on a shop. */
function inspectorStore(): InspectorStore {
  const tab: TabSnapshot = {
    tabId: 5,
    messages: [],
    running: false,
    confirmations: [],
    tools: [],
    toolsKnown: true,
    page: { url: 'https://shop.example/' },
  };
  return fakeInspectorStore(tab);
}

describe('createDevelopState', () => {
  it('creates the evals once, and the audit only when asked (it reads the site’s profile), then keeps it', () => {
    const siteAgentFor = vi.fn(async () => undefined);
    const state = createDevelopState(inspectorStore(), {
      tabs: { load: async () => {} },
      audit: { scanForms: async () => [] as unknown, siteAgentFor },
    });
    const evals = state.evals();
    expect(state.evals()).toBe(evals);
    expect(evals.url.value).toBe('https://shop.example/');
    expect(siteAgentFor).not.toHaveBeenCalled();
    const audit = state.audit();
    expect(state.audit()).toBe(audit);
    expect(siteAgentFor).toHaveBeenCalledWith('https://shop.example/');
  });

  it('the audit ranks against the requests of the loaded eval file', async () => {
    const state = createDevelopState(inspectorStore(), {
      tabs: { load: async () => {} },
      audit: { scanForms: async () => [] as unknown, siteAgentFor: async () => undefined },
    });
    expect((await state.audit().run())?.looked.examples).toBe(0);
    state.evals().load(EVALS, 'evals.json');
    expect((await state.audit().run())?.looked.examples).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import { createEvalsState } from './create-evals-state';
import { fakeInspectorStore } from './inspector-store-fake';

const TAB: TabSnapshot = {
  tabId: 5,
  messages: [],
  running: false,
  confirmations: [],
  tools: [],
  toolsKnown: true,
  page: { url: 'https://shop.example/' },
};
const EVALS = JSON.stringify([
  { messages: [{ role: 'user', type: 'message', content: 'Find a mug' }], expectedCall: [{ functionName: 'search' }] },
]);
const tabs = { load: async () => {} };

describe('createEvalsState', () => {
  it('starts at the tab’s address and loads a file’s cases', () => {
    const state = createEvalsState(fakeInspectorStore(TAB), tabs);
    expect(state.url.value).toBe('https://shop.example/');
    expect(state.load(EVALS, 'shop.evals.json')).toBe(true);
    expect(state.fileName.value).toBe('shop.evals.json');
    expect(state.cases.value).toHaveLength(1);
    expect(state.summary.value).toEqual({ passed: 0, done: 0, total: 1 });
  });

  it('says why a file cannot run, and keeps its name so the person knows which', () => {
    const state = createEvalsState(fakeInspectorStore(TAB), tabs);
    expect(state.load('{ not json', 'broken.json')).toBe(false);
    expect(state.fileName.value).toBe('broken.json');
    expect(state.cases.value).toEqual([]);
    expect(state.errors.value.length).toBeGreaterThan(0);
  });

  it('runs nothing without cases, or from an address that is not http(s)', async () => {
    const state = createEvalsState(fakeInspectorStore(TAB), tabs);
    await expect(state.run()).resolves.toBeUndefined();
    state.load(EVALS, 'shop.evals.json');
    state.url.value = 'javascript:alert(1)';
    await expect(state.run()).resolves.toBeUndefined();
    expect(state.errors.value).toEqual(['The starting URL must be an http(s) address.']);
    expect(state.running.value).toBe(false);
  });
});

import { signal } from '@preact/signals';
import { describe, expect, it, vi } from 'vitest';
import type { SharingState } from '../../lib/messaging/mcp-bridge-messages';
import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import type { SharingStore } from '../sharing/create-sharing-store';
import { createPanelStore } from './create-panel-store';
import { fakeAgentClient } from './fake-agent-client';

const snapshot = (patch: Partial<TabSnapshot> = {}): TabSnapshot => ({
  tabId: 1,
  messages: [],
  running: false,
  confirmations: [],
  tools: [],
  toolsKnown: true,
  ...patch,
});

const EVALS = JSON.stringify([{ messages: [{ role: 'user', type: 'message', content: 'Find a mug' }], expectedCall: null }]);

describe('createPanelStore', () => {
  it('binding another tab forgets the old one (snapshot, timeline, revealed, notice) and tells the host; a new address does not rebind', () => {
    const client = fakeAgentClient();
    const store = createPanelStore(client);
    store.bind(1, 'https://shop.test/');
    client.emit({
      type: 'panel/tab',
      snapshot: snapshot({ confirmations: [{ id: 'q1', masked: true } as TabSnapshot['confirmations'][0]] }),
    });
    client.emit({ type: 'panel/timeline', tabId: 1, entries: [{ id: 'c1' } as never] });
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q1', input: 'clear' });
    client.emit({ type: 'panel/notice', tabId: 1, message: 'note' });
    store.bind(1, 'https://shop.test/other');
    expect(client.sent.filter((i) => i.type === 'panel/bind')).toHaveLength(1);
    expect(store.revealed.value).toEqual({ q1: 'clear' });
    store.bind(2);
    expect(client.sent.at(-1)).toEqual({ type: 'panel/bind', tabId: 2 });
    expect(store.tab.value).toBeUndefined();
    expect(store.timeline.value).toEqual([]);
    expect(store.revealed.value).toEqual({});
    expect(store.notice.value).toBeUndefined();
  });

  it('keeps the evals and the audit per panel: two panels never share them, and one panel keeps its own', async () => {
    const siteAgentFor = vi.fn(async () => undefined);
    const audit = { scanForms: async () => [] as unknown, siteAgentFor };
    const first = createPanelStore(fakeAgentClient(), { audit });
    const second = createPanelStore(fakeAgentClient(), { audit });
    const firstEvals = (await first.develop()).evals();
    expect(firstEvals.load(EVALS, 'first.json')).toBe(true);
    // Creating the evals does not start the audit (it reads the site's profile): that waits for the Audit view.
    expect(siteAgentFor).not.toHaveBeenCalled();
    const secondEvals = (await second.develop()).evals();
    expect(secondEvals).not.toBe(firstEvals);
    expect(secondEvals.cases.value).toEqual([]);
    expect((await first.develop()).evals()).toBe(firstEvals);
    expect(firstEvals.fileName.value).toBe('first.json');
    const firstAudit = (await first.develop()).audit();
    const secondAudit = (await second.develop()).audit();
    expect(secondAudit).not.toBe(firstAudit);
    expect((await first.develop()).audit()).toBe(firstAudit);
  });

  it('asks what the tab shares with desktop agents again when the tab or its page changes, not on every snapshot', () => {
    const watch = vi.fn();
    const sharing: SharingStore = {
      state: signal<SharingState | undefined>(undefined),
      watch,
      setEnabled: () => {},
      share: () => {},
      stop: () => {},
      pair: () => {},
    };
    const client = fakeAgentClient();
    const store = createPanelStore(client, { sharing });
    expect(store.sharing).toBe(sharing);
    expect(watch.mock.calls).toEqual([[undefined]]);
    store.bind(1, 'https://shop.test/');
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/' } }) });
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/' }, running: true }) });
    client.emit({ type: 'panel/tab', snapshot: snapshot({ page: { url: 'https://shop.test/cart' } }) });
    expect(watch.mock.calls).toEqual([[undefined], [1], [1]]);
  });
});

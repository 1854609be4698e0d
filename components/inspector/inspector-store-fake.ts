import { computed, type Signal, signal } from '@preact/signals';
import type { AdapterSummary, TabSnapshot } from '../../lib/messaging/agent-messages';
import type { CallRecord } from '../../lib/messaging/call-record';
import type { InspectorStore } from './inspector-store';

/** The store as the inspector's tests play it: what the panel would show is set on these signals directly. */
interface FakeInspectorStore extends InspectorStore {
  tab: Signal<TabSnapshot | undefined>;
  timeline: Signal<CallRecord[]>;
  adapters: Signal<AdapterSummary[]>;
}

/**
 * A stand-in for the panel's store behind the inspector's own interface (InspectorStore), for the inspector's tests:
 * they set the tab, its calls and the agents as the host's events would, with no panel store or host client. The
 * tab id follows the snapshot; the actions do nothing.
 */
export function fakeInspectorStore(tab?: TabSnapshot): FakeInspectorStore {
  const snapshot = signal(tab);
  return {
    tabId: computed(() => snapshot.value?.tabId),
    tab: snapshot,
    timeline: signal([]),
    secretFields: signal({}),
    adapters: signal([]),
    adapter: signal(undefined),
    runTool: () => undefined,
    confirm: () => {},
    refresh: () => {},
    redact: async (value) => value,
    draft: signal(''),
    send: () => false,
    stop: () => {},
    newChat: () => {},
  };
}

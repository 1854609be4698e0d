import { computed, type ReadonlySignal, type Signal, signal } from '@preact/signals';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { HostEvent, TabSnapshot } from '../../lib/messaging/agent-messages';
import { webOriginOf } from '../../lib/shared/web-origin-of';

/** The tab the panel follows, the host's view of it, and the line to the host: what every area reads. */
export interface TabSlice {
  /** The tab this panel follows. */
  tabId: ReadonlySignal<number | undefined>;
  /** The host's latest snapshot of that tab. */
  tab: ReadonlySignal<TabSnapshot | undefined>;
  connected: ReadonlySignal<boolean>;
  /** The host's last notice (an intent it could not carry out). */
  notice: ReadonlySignal<string | undefined>;
  /** Asks the host to re-read tools and settings (the panel became visible again). */
  refresh(): void;
  dismissNotice(): void;
}

/** The tab slice as the panel's other slices use it: the notice they may set, the tab's site, and following a tab. */
export interface TabLink extends TabSlice {
  notice: Signal<string | undefined>;
  /** The tab's address as the browser last gave it (followTab: when bound, and at every change of address). */
  tabUrl: ReadonlySignal<string | undefined>;
  /** The site the agent host knows the tab shows now; undefined until a fresh snapshot names the page. */
  hostSite: ReadonlySignal<string | undefined>;
  /** Runs `act` with the followed tab's id, when the panel follows one. */
  withTab(act: (id: number) => void): void;
  /** Follows another tab: nothing the host said of the old one holds for it. */
  follow(tabId: number, url: string | undefined): void;
  /** The same tab at a new address. */
  moved(url: string): void;
  /** Takes the host's events about the tab (its snapshots, its notices). */
  receive(event: HostEvent): void;
}

/** Creates the tab slice over the panel's line to the agent host. */
export function createTabSlice(client: AgentClient): TabLink {
  const tabId = signal<number | undefined>(undefined);
  const tab = signal<TabSnapshot | undefined>(undefined);
  const connected = signal(client.connected());
  const notice = signal<string | undefined>(undefined);
  const tabUrl = signal<string | undefined>(undefined);
  /** Whether `tab` came over the current connection: a snapshot from before the host went away may be stale. */
  const fresh = signal(false);
  const hostSite = computed(() => (fresh.value ? webOriginOf(tab.value?.page?.url) : undefined));
  const withTab = (act: (id: number) => void) => {
    if (tabId.value !== undefined) act(tabId.value);
  };

  client.onConnectionChange((value) => {
    connected.value = value;
    // What the host said before it went away is not what it knows now (it may have restarted, the tab moved).
    if (!value) fresh.value = false;
  });

  return {
    tabId,
    tab,
    connected,
    notice,
    tabUrl,
    hostSite,
    withTab,
    follow(id, url) {
      tabId.value = id;
      tabUrl.value = url;
      tab.value = undefined;
      fresh.value = false;
    },
    moved(url) {
      tabUrl.value = url;
    },
    receive(event) {
      if (event.type === 'panel/tab' && event.snapshot.tabId === tabId.value) {
        tab.value = event.snapshot;
        fresh.value = true;
      } else if (event.type === 'panel/notice' && (event.tabId === undefined || event.tabId === tabId.value)) {
        notice.value = event.message;
      }
    },
    refresh: () => withTab((id) => client.send({ type: 'panel/refresh', tabId: id })),
    dismissNotice() {
      notice.value = undefined;
    },
  };
}

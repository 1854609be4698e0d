import { computed, type ReadonlySignal, signal } from '@preact/signals';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type {
  AdapterSummary,
  AgentKind,
  ConfirmationAnswer,
  HostEvent,
  TabSnapshot,
} from '../../lib/messaging/agent-messages';

/** The panel's state, kept outside the views: signals the views read, and the intents they may send. */
export interface ChatStore {
  /** The tab this panel follows. */
  tabId: ReadonlySignal<number | undefined>;
  /** The host's latest snapshot of that tab. */
  tab: ReadonlySignal<TabSnapshot | undefined>;
  adapters: ReadonlySignal<AdapterSummary[]>;
  chosen: ReadonlySignal<AgentKind | undefined>;
  /** The chosen adapter's summary. */
  adapter: ReadonlySignal<AdapterSummary | undefined>;
  connected: ReadonlySignal<boolean>;
  /** The host's last notice (an intent it could not carry out). */
  notice: ReadonlySignal<string | undefined>;
  /** The composer's text: it lives here so switching views or tabs does not lose it. */
  draft: ReturnType<typeof signal<string>>;
  view: ReturnType<typeof signal<'chat' | 'tools'>>;
  /** Whether Send may be pressed now. */
  canSend: ReadonlySignal<boolean>;
  bind(tabId: number, url?: string): void;
  /** Sends the draft; true when it went (the draft is then cleared). */
  send(): boolean;
  stop(): void;
  retry(): void;
  newChat(): void;
  /** Answers a confirmation by the id the host gave it. */
  confirm(confirmationId: string, answer: ConfirmationAnswer): void;
  chooseAdapter(kind: AgentKind): void;
  chooseModel(modelId: string): void;
  prepare(): void;
  cancelPrepare(): void;
  /** Asks the host to re-read tools and settings (the panel became visible again). */
  refresh(): void;
  dismissNotice(): void;
}

/** Creates the store over a connection to the agent host. */
export function createChatStore(client: AgentClient): ChatStore {
  const tabId = signal<number | undefined>(undefined);
  const tab = signal<TabSnapshot | undefined>(undefined);
  const adapters = signal<AdapterSummary[]>([]);
  const chosen = signal<AgentKind | undefined>(undefined);
  const connected = signal(client.connected());
  const notice = signal<string | undefined>(undefined);
  const draft = signal('');
  const view = signal<'chat' | 'tools'>('chat');
  const adapter = computed(() => adapters.value.find((a) => a.kind === chosen.value));
  const canSend = computed(
    () =>
      connected.value &&
      tab.value !== undefined &&
      !tab.value.running &&
      adapter.value?.status.state === 'ready' &&
      draft.value.trim().length > 0,
  );

  client.onConnectionChange((value) => {
    connected.value = value;
  });
  client.subscribe((event: HostEvent) => {
    switch (event.type) {
      case 'tab':
        if (event.snapshot.tabId === tabId.value) tab.value = event.snapshot;
        return;
      case 'adapters':
        adapters.value = event.adapters;
        chosen.value = event.chosen;
        return;
      case 'notice':
        if (event.tabId === undefined || event.tabId === tabId.value) notice.value = event.message;
        return;
    }
  });

  const withTab = (act: (id: number) => void) => {
    if (tabId.value !== undefined) act(tabId.value);
  };

  return {
    tabId,
    tab,
    adapters,
    chosen,
    adapter,
    connected,
    notice,
    draft,
    view,
    canSend,
    bind(id, url) {
      if (id === tabId.value) return;
      tabId.value = id;
      tab.value = undefined;
      notice.value = undefined;
      client.send({ type: 'bind', tabId: id, ...(url ? { url } : {}) });
    },
    send() {
      if (!canSend.value || tabId.value === undefined) return false;
      client.send({ type: 'send', tabId: tabId.value, text: draft.value });
      draft.value = '';
      notice.value = undefined;
      return true;
    },
    stop: () => withTab((id) => client.send({ type: 'stop', tabId: id })),
    retry: () =>
      withTab((id) => {
        notice.value = undefined;
        client.send({ type: 'retry', tabId: id });
      }),
    newChat: () =>
      withTab((id) => {
        notice.value = undefined;
        client.send({ type: 'new-chat', tabId: id });
      }),
    confirm: (confirmationId, answer) => withTab((id) => client.send({ type: 'confirm', tabId: id, confirmationId, answer })),
    chooseAdapter(kind) {
      // Shown at once; the host's next adapters event confirms it.
      chosen.value = kind;
      client.send({ type: 'choose-adapter', adapter: kind });
    },
    chooseModel(modelId) {
      if (chosen.value) client.send({ type: 'choose-model', adapter: chosen.value, modelId });
    },
    prepare() {
      if (chosen.value) client.send({ type: 'prepare', adapter: chosen.value });
    },
    cancelPrepare() {
      if (chosen.value) client.send({ type: 'cancel-prepare', adapter: chosen.value });
    },
    refresh: () => withTab((id) => client.send({ type: 'refresh', tabId: id })),
    dismissNotice() {
      notice.value = undefined;
    },
  };
}

import { effect, type Signal, signal } from '@preact/signals';
import type { AgentClient } from '../../lib/messaging/agent-client';
import type { HostEvent } from '../../lib/messaging/agent-messages';
import type { AuditPorts } from '../inspector/create-audit-state';
import type { DevelopState } from '../inspector/create-develop-state';
import type { EvalTabsPort } from '../inspector/create-eval-driver';
import type { SharingStore } from '../sharing/create-sharing-store';
import { type AdapterSlice, createAdapterSlice } from './create-adapter-slice';
import { type CallsSlice, createCallsSlice } from './create-calls-slice';
import { type ConversationSlice, createConversationSlice } from './create-conversation-slice';
import { createExportsSlice, type ExportsSlice } from './create-exports-slice';
import { createQuestionsSlice, type QuestionsSlice } from './create-questions-slice';
import { createTabSlice, type TabSlice } from './create-tab-slice';
import { createTaskSlice, type OpenTabIds, type TaskSlice } from './create-task-slice';

/** The panel's views: the conversation, the page's tools (the inspector), the developer's timeline and evals, and the audit. */
type PanelView = 'chat' | 'tools' | 'develop' | 'audit';

/**
 * The side panel's state, kept outside the views and created once per panel: the slices each area reads (the tab,
 * the agents, the questions, the conversation, the calls, the exports), the view shown, the inspector's evals and
 * audit, and what is shared with desktop agents.
 */
export type PanelStore = TabSlice &
  AdapterSlice &
  QuestionsSlice &
  ConversationSlice &
  CallsSlice &
  ExportsSlice &
  TaskSlice & {
    view: Signal<PanelView>;
    /** Follows a tab (or the same tab at a new address, from followTab). */
    bind(tabId: number, url?: string): void;
    /**
     * This panel's evals and audit, each created on first use and kept for the panel's life (a run goes on while
     * the person reads the chat). Their code is its own chunk, loaded by the first call.
     */
    develop(): Promise<DevelopState>;
    /** What is shared with desktop agents (lib/mcp-bridge), watched for the followed tab; none: the panel shows nothing of them. */
    sharing: SharingStore | undefined;
  };

/** What the panel reads from the browser besides the agent host, given by the side panel's entry point. */
interface PanelPorts {
  /** Loads a URL in the followed tab, for evals. Without it, evals say they cannot run here. */
  tabs?: EvalTabsPort;
  /** What the audit reads from the browser (the page's forms, the site's agent). Without it, forms are not read. */
  audit?: AuditPorts;
  /** What is shared with desktop agents. */
  sharing?: SharingStore;
  /** The browser's open tabs, for the task chooser. Without it, the chooser lists none. */
  openTabIds?: OpenTabIds;
}

const NO_TABS: EvalTabsPort = { load: () => Promise.reject(new Error('This panel cannot load pages.')) };
const NO_AUDIT_PORTS: AuditPorts = {
  scanForms: () => Promise.reject(new Error('this panel cannot read pages')),
  siteAgentFor: async () => undefined,
};

/** Creates the panel's store over its line to the agent host. */
export function createPanelStore(client: AgentClient, ports: PanelPorts = {}): PanelStore {
  let requests = 0;
  // The panel's ids for its runs by hand, to find each in the timeline.
  const nextRequestId = () => `${Date.now().toString(36)}-${++requests}`;
  const tabs = createTabSlice(client);
  const adapters = createAdapterSlice(client);
  const conversation = createConversationSlice(client, tabs, adapters.adapter);
  const questions = createQuestionsSlice(client, tabs);
  const calls = createCallsSlice(client, tabs, nextRequestId);
  const exports = createExportsSlice(client, tabs, calls.secretFields);
  const task = createTaskSlice(client, tabs, ports.openTabIds ?? (async () => []));
  const view = signal<PanelView>('chat');
  let develop: Promise<DevelopState> | undefined;

  client.subscribe((event: HostEvent) => {
    tabs.receive(event);
    questions.receive(event);
    conversation.receive(event);
    adapters.receive(event);
    calls.receive(event);
  });

  const store: PanelStore = {
    tabId: tabs.tabId,
    tab: tabs.tab,
    connected: tabs.connected,
    notice: tabs.notice,
    refresh: tabs.refresh,
    dismissNotice: tabs.dismissNotice,
    adapters: adapters.adapters,
    chosen: adapters.chosen,
    adapter: adapters.adapter,
    chooseAdapter: adapters.chooseAdapter,
    chooseModel: adapters.chooseModel,
    prepare: adapters.prepare,
    cancelPrepare: adapters.cancelPrepare,
    confirm: questions.confirm,
    revealed: questions.revealed,
    reveal: questions.reveal,
    hide: questions.hide,
    draft: conversation.draft,
    canSend: conversation.canSend,
    waiting: conversation.waiting,
    send: conversation.send,
    stop: conversation.stop,
    retry: conversation.retry,
    newChat: conversation.newChat,
    timeline: calls.timeline,
    secretFields: calls.secretFields,
    runTool: calls.runTool,
    exportTranscript: exports.exportTranscript,
    redact: exports.redact,
    openTabs: task.openTabs,
    listTabs: task.listTabs,
    addTaskTab: task.addTaskTab,
    removeTaskTab: task.removeTaskTab,
    taskLeft: task.taskLeft,
    dismissTaskLeft: task.dismissTaskLeft,
    view,
    bind(id, url) {
      if (id === tabs.tabId.value) {
        // The same tab at a new address (followTab): the site a message is typed on, and may go to, changed.
        if (url !== undefined) tabs.moved(url);
        return;
      }
      conversation.leave();
      tabs.follow(id, url);
      calls.clear();
      questions.clear();
      task.clear();
      tabs.dismissNotice();
      client.send({ type: 'panel/bind', tabId: id, ...(url ? { url } : {}) });
    },
    develop() {
      develop ??= import('../inspector/create-develop-state').then(({ createDevelopState }) =>
        createDevelopState(store, { tabs: ports.tabs ?? NO_TABS, audit: ports.audit ?? NO_AUDIT_PORTS }),
      );
      return develop;
    },
    sharing: ports.sharing,
  };
  if (ports.sharing) watchSharedTab(store, ports.sharing);
  return store;
}

/** Asks what the panel's tab shares with desktop agents again when the tab or its page changes. */
function watchSharedTab(store: PanelStore, sharing: SharingStore): void {
  let watched: string | undefined;
  effect(() => {
    const tab = store.tab.value;
    const key = JSON.stringify([tab?.tabId, tab?.page?.url]);
    if (key === watched) return;
    watched = key;
    sharing.watch(tab?.tabId);
  });
}

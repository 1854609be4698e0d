import type { AgentAdapter } from '../agent/types';
import { type CallTimeline, createCallTimeline } from '../call-log/call-timeline';
import { webOriginOf } from '../shared/web-origin-of';
import type { ConversationStore } from '../storage/conversations';
import { secretPathsOf } from '../transcript/secret-paths-of';
import type { HostSettingsPort, HostRouterClient } from './agent-host-deps';
import { createLiveCalls, type LiveCalls } from './create-live-calls';
import { createTabCalls, type TabCalls } from './create-tab-calls';
import { createTabConversation, type TabConversation } from './create-tab-conversation';
import { createTabRuns, type TabRuns } from './create-tab-runs';
import { createTabTools, type TabTools } from './create-tab-tools';
import { createTask, type Task } from './create-task';
import { createTaskFlows } from './create-task-flows';
import { tagTaskCalls } from './tag-task-calls';

/** What a tab's session is made of. */
export interface TabPartsDeps {
  tabId: number;
  /** The tab's URL when the panel bound it, to adopt a conversation after a browser restart. */
  url?: string;
  store: ConversationStore;
  bridge: HostRouterClient;
  settings: HostSettingsPort;
  /** The adapter chosen now, or why there is none. */
  adapter: () => Promise<AgentAdapter | { unavailable: string }>;
  /** Ids for user messages and for confirmations (those must be unguessable: crypto.randomUUID). */
  generateId: () => string;
  saveDelayMs: number;
}

/** A tab session's named parts, each in its own file, wired to one another. */
export interface TabParts {
  /** The conversation as stored, and its saving (create-tab-conversation.ts). */
  conversation: TabConversation;
  /** The tab's tools as the router reports them (create-tab-tools.ts). */
  tabTools: TabTools;
  /** The tab's tool calls: the agent's, by hand, desktop agents' (create-tab-calls.ts). */
  calls: TabCalls;
  /** The task across tabs (create-task.ts). */
  task: Task;
  /** The tab's calls, as recorded (the inspector's timeline). */
  timeline: CallTimeline;
  /** The calls' live states, laid over the conversation (create-live-calls.ts). */
  live: LiveCalls;
  /** The runs of the adapter, one after the other (create-tab-runs.ts). */
  runs: TabRuns;
  /** Resolves once the stored conversation has been read and its task's tabs restored (or not). */
  ready: Promise<void>;
  /** The top-level site the tab shows now, as the router's latest snapshot names its top page. */
  currentSite(): string | undefined;
  /** What the panel shows changed. */
  emit(): void;
}

/** How the parts tell the session's subscribers that what the panel shows changed. */
interface TabPartsEmit {
  /** Batched by the session (a run's stream of parts). */
  emit(): void;
  /** At once (a run ended: its answer is not held for the batch). */
  emitNow(): void;
}

/**
 * Creates a tab session's parts; `emit` tells the session's subscribers (batched by the session), `emitNow` at once. The tab's site is
 * always the router's latest snapshot's top page: never the URL the panel bound, which may be stale (the tab moved
 * while this host was away); a site not known yet counts as another site wherever data is at stake
 * (docs/security.md).
 */
export function createTabParts(deps: TabPartsDeps, { emit, emitNow }: TabPartsEmit): TabParts {
  const { tabId, bridge, settings } = deps;
  const conversation = createTabConversation({ tabId, url: deps.url, store: deps.store, saveDelayMs: deps.saveDelayMs });
  const timeline = createCallTimeline();
  const taskTimeline = tagTaskCalls(timeline, (callId) => runs.routeOf(callId));
  /** The crossings the person allowed for this conversation's task: in memory only, gone with the conversation. */
  const flows = createTaskFlows();
  const live = createLiveCalls(emit);
  const currentSite = () => webOriginOf(tabTools.page()?.url);
  const tabTools = createTabTools({
    tabId,
    bridge,
    settings,
    // Nothing of the tab is shown before its conversation was read.
    after: conversation.ready,
    onChange: () => {
      // A run whose tab reached another site ends here, before the model sees that site's tools.
      runs.guard()?.notice(currentSite());
      emit();
    },
  });
  /** The conversation now holds what a tool of this origin returned. */
  const read = (origin: string) => {
    if (conversation.sites.includes(origin)) return;
    conversation.sites = [...conversation.sites, origin];
    conversation.save();
  };
  const common = { bridge, settings, generateId: deps.generateId, timeline: taskTimeline, live, read, emit };
  const sites = () => conversation.sites;
  const calls = createTabCalls({
    ...common,
    tabId,
    tools: tabTools,
    guard: () => runs.guard(),
    sites,
    currentSite,
    allowFlows: (allowed) => flows.allow(allowed),
  });
  const task = createTask({
    ...common,
    tabId,
    sites,
    flows,
    guardOf: (other) => runs.guardOf(other),
    saveTabs: (tabs) => {
      conversation.tabs = tabs;
      conversation.save();
    },
  });
  /** A call's secret paths: those its timeline record kept (the schema it ran under), else the page's tool's now. */
  const secretPathsFor = (call: { id: string; name: string }) =>
    timeline.entries().findLast((r) => r.id === call.id)?.secretPaths ?? secretPathsOf(tabTools.find(call.name)?.inputSchema);
  const runs = createTabRuns({
    tabId,
    conversation,
    tools: tabTools,
    calls,
    task,
    flows,
    timeline: taskTimeline,
    live,
    adapter: deps.adapter,
    currentSite,
    secretPathsFor,
    emit,
    emitNow,
  });
  // The stored tab set comes back only for tabs still open on the same sites (restore-task-tabs.ts).
  // A tab set that cannot be checked is not brought back, and never holds up the conversation.
  const ready = conversation.ready.then(() => task.restore(conversation.tabs)).catch(() => undefined);
  return { conversation, tabTools, calls, task, timeline, live, runs, ready, currentSite, emit };
}

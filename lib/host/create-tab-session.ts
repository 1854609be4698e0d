import { initialRunState } from '../agent/reduce-stream-part';
import type { AgentAdapter, AgentMessage, ToolCall, ToolOutput } from '../agent/types';
import { createCallTimeline } from '../inspector/call-timeline';
import type { CallRecord } from '../messaging/call-record';
import type { ConfirmationAnswer, TabSnapshot, TranscriptFormat } from '../messaging/agent-messages';
import { secretPathsOf } from '../transcript/secret-paths-of';
import type { ConversationStore } from '../storage/conversations';
import type { HostSettingsPort, HostToolBridge } from './agent-host-deps';
import { applyLiveCalls, type LiveCall } from './apply-live-calls';
import { createBatchedTask } from './create-batched-task';
import { createRunGuard, type RunGuard } from './create-run-guard';
import { createTabCalls } from './create-tab-calls';
import { createTabConversation } from './create-tab-conversation';
import { createTabTools } from './create-tab-tools';
import { exportTabTranscript, type TranscriptExportOptions } from './export-tab-transcript';
import { retryMessages } from './retry-messages';
import { runAdapter } from './run-adapter';
import type { ClientCallRequest } from '../messaging/client-call-request';
import { runOutcomeOf } from './run-outcome-of';
import { siteMovedBeforeSend } from '../shared/site-moved-before-send';
import { webOriginOf } from '../shared/web-origin-of';
import { createToolNames } from '../agent/site-tool-names';
import type { TaskLeaveReason } from '../messaging/task-tabs';
import { createTask } from './create-task';
import { createTaskFlows } from './create-task-flows';
import { startTaskRun, type TaskRun } from './start-task-run';
import { type TaskCallRoute, tagTaskCalls } from './tag-task-calls';

/** Why a run (Retry) did not start: nobody knows yet which site the tab shows. */
export const SITE_UNKNOWN_RUN_ERROR =
  'Nothing ran: the tab’s site is not known yet (its page may still be loading), and what this conversation holds goes only to a site the agent knows. Press Retry once the page has loaded.';

/** How long an adapter may take to wind down after Stop before the host stops listening to it. */
const STOP_GRACE_MS = 3000;

/** One tab's conversation and its run. */
export interface TabSession {
  readonly tabId: number;
  /** Resolves once the stored conversation has been read. */
  readonly ready: Promise<void>;
  snapshot(): TabSnapshot;
  /**
   * Sends the person's message. `site` is the top-level site the person typed it on: it runs only when the tab's
   * snapshot shows that very site; when it shows another, or none yet, nothing is sent and the answer says why (the
   * panel puts the text back in the box).
   */
  send(text: string, site: string): Promise<{ refused: string } | undefined>;
  retry(): Promise<void>;
  stop(): void;
  /** Clears the conversation; `seed` starts the new one with earlier turns. */
  newChat(seed?: AgentMessage[]): Promise<void>;
  /** Answers the open confirmation with this id (the host's, from the snapshot); any other id does nothing. */
  confirm(confirmationId: string, answer: ConfirmationAnswer): void;
  /**
   * The clear arguments of the open question with this id, when it masked what the schema marks secret: the
   * person's Reveal in that question. Undefined for any other id, or once the question closed.
   */
  reveal(confirmationId: string): string | undefined;
  /**
   * Runs one tool by hand (the inspector): the arguments are checked with the agent's validator, then the call
   * goes through the same confirmation policy, bridge and cursor as an agent's. It shows in the timeline under
   * `requestId`; a refused one too, with `invalid_input`.
   */
  runByHand(name: string, input: Record<string, unknown>, requestId: string): Promise<void>;
  /**
   * Runs a call a desktop agent made through the MCP bridge (lib/mcp-bridge/create-mcp-bridge.ts) the way an
   * agent's runs: arguments checked, the confirmation policy (and `force`: the client holds another site's data),
   * asked in this tab's panel in the client's name, then the same bridge and cursor; the timeline marks it with the
   * client. Nothing runs once the tab no longer shows `site`. `ran`: the call reached the page.
   */
  runForClient(call: ToolCall, request: ClientCallRequest): Promise<{ output: ToolOutput; ran: boolean }>;
  /** The tab's calls, by the agent, by desktop agents and by hand. */
  timeline(): CallRecord[];
  /** Forgets the tab's calls ("Delete all conversations": they hold arguments and results too). */
  clearTimeline(): void;
  /** Called after every timeline change. */
  subscribeTimeline(listener: (entries: CallRecord[]) => void): () => void;
  /** The conversation as an export, with `secrets` (the key) and secret fields redacted. */
  exportTranscript(format: TranscriptFormat, options: TranscriptExportOptions): { text: string; fileName: string };
  /** Re-reads the tab's tools from the bridge (the view follows the bridge's changes by itself). */
  refreshTools(): Promise<void>;
  /** Stops following the tab's tools (the tab closed). */
  close(): void;
  /** Writes any pending conversation change now. */
  flush(): Promise<void>;
  /**
   * The person adds a tab to this conversation's task (docs/security.md, "Tasks across tabs"): only from a panel
   * intent, which the host takes from the extension's own pages alone. Resolves why not, or undefined once added.
   */
  addTaskTab(tabId: number): Promise<string | undefined>;
  /** The person removes a tab from the task. */
  removeTaskTab(tabId: number): Promise<void>;
  /** A tab closed or crashed: it leaves this conversation's task if it was in it. */
  taskTabGone(tabId: number, reason: Extract<TaskLeaveReason, 'closed' | 'crashed'>): void;
  /** Called after every change (already batched by emitDelayMs). */
  subscribe(listener: (snapshot: TabSnapshot) => void): () => void;
  /** Resolves when the current run (if any) has ended and been saved. */
  idle(): Promise<void>;
}

interface TabSessionDeps {
  tabId: number;
  /** The tab's URL when the panel bound it, to adopt a conversation after a browser restart. */
  url?: string;
  store: ConversationStore;
  bridge: HostToolBridge;
  settings: HostSettingsPort;
  /** The adapter chosen now, or why there is none. */
  adapter: () => Promise<AgentAdapter | { unavailable: string }>;
  /** Ids for user messages and for confirmations (those must be unguessable: crypto.randomUUID). */
  generateId: () => string;
  saveDelayMs: number;
  emitDelayMs: number;
}

/**
 * Creates a tab's session: it loads the stored conversation, runs the chosen adapter on the person's messages,
 * folds the stream parts into the conversation, applies the confirmation policy to every tool call, saves after
 * every part (batched, flushed when a run ends) and tells subscribers. A run belongs to the session, not to a
 * panel: it goes on when every panel is closed.
 */
export function createTabSession(deps: TabSessionDeps): TabSession {
  const { tabId, bridge, settings } = deps;
  const conversation = createTabConversation({ tabId, url: deps.url, store: deps.store, saveDelayMs: deps.saveDelayMs });
  let controller: AbortController | undefined;
  let current: Promise<void> = Promise.resolve();
  const timeline = createCallTimeline();
  /** Where each call of a run across tabs went: the timeline records its tab and site (tag-task-calls.ts). */
  const routes = new Map<string, TaskCallRoute>();
  const taskTimeline = tagTaskCalls(timeline, (callId) => routes.get(callId));
  /** The crossings the person allowed for this conversation's task: in memory only, gone with the conversation. */
  const flows = createTaskFlows();
  /** The names of pooled tools while this session lasts: a name never stands for another tab, site or frame. */
  const taskNames = createToolNames();
  /** The run across the task's tabs going now, when the run spans tabs. */
  let taskRun: TaskRun | undefined;
  /** The rules of the run going now (create-run-guard.ts). */
  let guard: RunGuard | undefined;
  const live = new Map<string, LiveCall>();
  /**
   * The site the tab shows, as the router's latest snapshot names its top page; undefined until one does. Never the
   * URL the panel bound: that may be stale (the tab moved while this host was away), and a site not known yet
   * counts as another site wherever data is at stake (docs/security.md).
   */
  const currentSite = () => webOriginOf(tabTools.page()?.url);
  const tabTools = createTabTools({
    tabId,
    bridge,
    settings,
    // Nothing of the tab is shown before its conversation was read.
    after: conversation.ready,
    onChange: () => {
      // A run whose tab reached another site ends here, before the model sees that site's tools.
      guard?.notice(currentSite());
      emit();
    },
  });
  const refreshTools = () => tabTools.refresh();
  const read = (origin: string) => {
    if (conversation.sites.includes(origin)) return;
    conversation.sites = [...conversation.sites, origin];
    conversation.save();
  };
  const calls = createTabCalls({
    tabId,
    bridge,
    settings,
    generateId: deps.generateId,
    tools: tabTools,
    timeline: taskTimeline,
    guard: () => guard,
    sites: () => conversation.sites,
    read,
    currentSite,
    live,
    emit: () => emit(),
    allowFlows: (allowed) => flows.allow(allowed),
  });
  const task = createTask({
    tabId,
    bridge,
    settings,
    generateId: deps.generateId,
    timeline: taskTimeline,
    live,
    sites: () => conversation.sites,
    read,
    flows,
    guardOf: (other) => taskRun?.guardOf(other),
    saveTabs: (tabs) => {
      conversation.tabs = tabs;
      conversation.save();
    },
    emit: () => emit(),
  });
  // The stored tab set comes back only for tabs still open on the same sites (restore-task-tabs.ts).
  // A tab set that cannot be checked is not brought back, and never holds up the conversation.
  const ready = conversation.ready.then(() => task.restore(conversation.tabs)).catch(() => undefined);
  const listeners = new Set<(snapshot: TabSnapshot) => void>();

  const snapshot = (): TabSnapshot => ({
    tabId,
    messages: applyLiveCalls(conversation.messages, live),
    running: conversation.running,
    ...(conversation.lastRun ? { lastRun: conversation.lastRun } : {}),
    confirmations: [...calls.questions(), ...task.questions()],
    tools: tabTools.forPanel(),
    toolsKnown: tabTools.known(),
    ...(tabTools.dropped()?.length ? { toolsDropped: tabTools.dropped() } : {}),
    ...(tabTools.limits()?.length ? { pageLimits: tabTools.limits() } : {}),
    ...(tabTools.page() ? { page: tabTools.page() } : {}),
    ...(conversation.sites.length > 0 ? { sites: conversation.sites } : {}),
    ...(task.tabs.spans() ? { taskTabs: task.tabs.list() } : {}),
    ...(task.left().length > 0 ? { taskLeft: task.left() } : {}),
  });

  const emitter = createBatchedTask(deps.emitDelayMs, () => {
    const value = snapshot();
    for (const listener of [...listeners]) listener(value);
  });
  const emit = () => emitter.schedule();

  /** A call's secret paths: those its timeline record kept (the schema it ran under), else the page's tool's now. */
  const secretPathsFor = (call: { id: string; name: string }) =>
    timeline.entries().findLast((r) => r.id === call.id)?.secretPaths ?? secretPathsOf(tabTools.find(call.name)?.inputSchema);

  /**
   * Runs the adapter over `messages`. `typedOn`: the site the person's message was typed on (send checked the tab
   * shows it); a run without one (Retry) belongs to the site the tab shows when it starts, and does not start while
   * that is not known.
   */
  const run = (messages: AgentMessage[], typedOn?: string) => {
    const previous = current;
    current = (async () => {
      await previous;
      const own = new AbortController();
      controller = own;
      conversation.messages = messages;
      conversation.lastRun = undefined;
      conversation.running = true;
      emit();
      await refreshTools();
      // The run belongs to the site it starts on; the conversation now holds that site's data too.
      const site = typedOn ?? currentSite();
      if (site === undefined) {
        conversation.running = false;
        controller = undefined;
        conversation.lastRun = { reason: 'error', error: SITE_UNKNOWN_RUN_ERROR };
        emit();
        await conversation.flush();
        return;
      }
      if (!conversation.sites.includes(site)) conversation.sites = [...conversation.sites, site];
      const runAgent = tabTools.agent();
      const runGuard = createRunGuard({
        site,
        agent: runAgent,
        stop: () => own.abort(),
        task: { flows, offer: () => task.tabs.spans() },
      });
      guard = runGuard;
      // A task of several tabs when the run starts: the run offers every tab's tools and routes each call to its tab.
      const across = startTaskRun({
        task,
        flows,
        names: taskNames,
        routes,
        timeline: taskTimeline,
        own: {
          tabId,
          site,
          tools: tabTools,
          guard: runGuard,
          agent: runAgent,
          callTool: (call, signal, from) => calls.callTool(call, signal, from),
        },
      });
      taskRun = across;
      // The tab may have moved since send looked: the run then ends before the model (or another site's profile)
      // hears anything of it.
      runGuard.notice(currentSite());
      const ended = runGuard.crossed()
        ? initialRunState(messages)
        : await runAdapter({
            conversation: messages,
            adapter: deps.adapter,
            signal: own.signal,
            graceMs: STOP_GRACE_MS,
            // While the tab is not known to show the run's site, no page's tools are this run's.
            tools: () => (runGuard.onSite() ? (across ? across.tools() : tabTools.forModel()) : []),
            callTool: (call, agentPath) =>
              across
                ? across.callTool(call, own.signal, agentPath)
                : calls.callTool(call, own.signal, { by: 'agent', ...(agentPath ? { agentPath } : {}) }),
            agent: across ? across.agent : runAgent,
            page: () => tabTools.page(),
            secretPathsFor,
            onPart: (folded, settled) => {
              conversation.messages = folded.messages;
              if (settled !== undefined) live.delete(settled);
              conversation.save();
              emit();
            },
          });
      calls.endRunQuestions();
      across?.end();
      taskRun = undefined;
      live.clear();
      conversation.running = false;
      controller = undefined;
      guard = undefined;
      conversation.lastRun = runOutcomeOf(ended, runGuard.crossed());
      emit();
      await conversation.flush();
    })();
    return current;
  };

  return {
    tabId,
    ready,
    snapshot,
    async send(text, site) {
      await ready;
      const trimmed = text.trim();
      if (!trimmed || conversation.running) return undefined;
      // What the router says the tab shows now: a message goes to the site it was typed on or nowhere, and a site
      // not known yet (a fresh session whose snapshot has not come, a page still loading) is another site.
      await refreshTools();
      const now = currentSite();
      if (typeof site !== 'string' || now !== site) return { refused: siteMovedBeforeSend(now) };
      const user: AgentMessage = { id: deps.generateId(), role: 'user', parts: [{ type: 'text', text: trimmed }] };
      await run([...conversation.messages, user], site);
      return undefined;
    },
    async retry() {
      await ready;
      if (conversation.running) return;
      const messages = retryMessages(conversation.messages);
      if (messages.length === 0) return;
      await run(messages);
    },
    stop() {
      controller?.abort();
      calls.stopHandCalls();
    },
    async newChat(seed) {
      await ready;
      controller?.abort();
      await current;
      conversation.messages = seed ?? [];
      conversation.lastRun = undefined;
      conversation.sites = [];
      // The task ends with the conversation: its added tabs and the crossings allowed for it.
      task.clear();
      emit();
      await conversation.flush();
    },
    async runByHand(name, input, requestId) {
      await ready;
      await tabTools.current();
      await calls.runByHand(name, input, requestId);
    },
    async runForClient(call, request) {
      await ready;
      await tabTools.current();
      return calls.runForClient(call, request);
    },
    timeline: () => timeline.entries(),
    clearTimeline: () => timeline.clear(),
    subscribeTimeline(listener) {
      return timeline.subscribe(() => listener(timeline.entries()));
    },
    exportTranscript: (format, options) =>
      exportTabTranscript(format, options, {
        messages: conversation.messages,
        tools: tabTools.all(),
        page: tabTools.page(),
        agent: tabTools.agent(),
        timeline: timeline.entries(),
      }),
    confirm: (confirmationId, answer) => {
      calls.confirm(confirmationId, answer);
      task.confirm(confirmationId, answer);
    },
    reveal: (confirmationId) => calls.reveal(confirmationId) ?? task.reveal(confirmationId),
    refreshTools: async () => {
      await ready;
      await refreshTools();
    },
    close: () => {
      tabTools.close();
      task.close();
    },
    async addTaskTab(other) {
      await ready;
      return task.tabs.add(other);
    },
    async removeTaskTab(other) {
      await ready;
      task.tabs.remove(other);
    },
    taskTabGone: (other, reason) => task.tabs.gone(other, reason),
    flush: async () => {
      await ready;
      await conversation.flush();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    idle: async () => {
      await ready;
      await current;
      await conversation.saved();
    },
  };
}

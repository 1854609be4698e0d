import type { AgentMessage, ToolCall, ToolOutput } from '../agent/types';
import type { CallRecord } from '../messaging/call-record';
import type { ConfirmationAnswer, TabSnapshot, TranscriptFormat } from '../messaging/agent-messages';
import { createBatchedTask } from './create-batched-task';
import { createTabParts, type TabPartsDeps } from './create-tab-parts';
import { exportTabTranscript, type TranscriptExportOptions } from './export-tab-transcript';
import { retryMessages } from './retry-messages';
import type { ClientCallRequest } from '../messaging/client-call-request';
import { siteMovedBeforeSend } from '../shared/site-moved-before-send';
import type { TaskLeaveReason } from '../messaging/task-tabs';
import { tabSnapshotOf } from './tab-snapshot-of';

export { SITE_UNKNOWN_RUN_ERROR } from './create-tab-runs';

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

interface TabSessionDeps extends TabPartsDeps {
  /** How long panel updates are held back to batch streamed parts. */
  emitDelayMs: number;
}

/**
 * Creates a tab's session: it loads the stored conversation, runs the chosen adapter on the person's messages,
 * folds the stream parts into the conversation, applies the confirmation policy to every tool call, saves after
 * every part (batched, flushed when a run ends) and tells subscribers. A run belongs to the session, not to a
 * panel: it goes on when every panel is closed.
 */
export function createTabSession(deps: TabSessionDeps): TabSession {
  const { tabId } = deps;
  const parts = createTabParts(deps, {
    emit: () => emitter.schedule(),
    // A run's end is shown at once: the batch is for a run's stream of parts, and its last text would otherwise wait
    // out the delay before the person sees the answer.
    emitNow: () => {
      emitter.cancel();
      publish();
    },
  });
  const { conversation, tabTools, calls, task, timeline, runs, ready, currentSite, emit } = parts;
  const refreshTools = () => tabTools.refresh();
  const listeners = new Set<(snapshot: TabSnapshot) => void>();
  const snapshot = () => tabSnapshotOf(tabId, parts);
  const publish = () => {
    const value = snapshot();
    for (const listener of [...listeners]) listener(value);
  };
  const emitter = createBatchedTask(deps.emitDelayMs, publish);

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
      await runs.run([...conversation.messages, user], site);
      return undefined;
    },
    async retry() {
      await ready;
      if (conversation.running) return;
      const messages = retryMessages(conversation.messages);
      if (messages.length === 0) return;
      await runs.run(messages);
    },
    stop() {
      runs.abort();
      calls.stopHandCalls();
    },
    async newChat(seed) {
      await ready;
      runs.abort();
      await runs.idle();
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
      await runs.idle();
      await conversation.saved();
    },
  };
}

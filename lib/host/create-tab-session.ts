import { initialRunState, reduceRunState, reduceStreamPart } from '../agent/reduce-stream-part';
import type {
  AgentAdapter,
  AgentMessage,
  AgentPart,
  AgentRunRequest,
  AgentStreamPart,
  PageContext,
  ToolCall,
  ToolCallState,
  ToolDescriptor,
  ToolOutput,
  WebAgent,
} from '../agent/types';
import { expectedToolOf } from '../background/expected-tool';
import type { TabToolEntry, TabToolSnapshot } from '../background/tool-bridge';
import type { ConfirmationAnswer, PendingConfirmation, RunOutcome, TabSnapshot } from '../messaging/agent-messages';
import type { ConversationStore } from '../storage/conversations';
import type { HostSettingsPort, HostToolBridge } from './agent-host-deps';
import { needsConfirmation } from './needs-confirmation';
import { retryMessages } from './retry-messages';

/** Said to the model when the person pressed Deny. */
export const DECLINED_CALL_ERROR = (tool: string) =>
  `Error [cancelled]: The person declined to run ${tool}. Do not call it again unless they ask for it.`;

/** Said of a call whose confirmation was still open when the person pressed Stop. */
export const STOPPED_BEFORE_CONFIRMATION_ERROR = 'Error [cancelled]: stopped before the person answered.';

/** Shown when a stored conversation had a run going that no longer exists. */
export const INTERRUPTED_RUN_ERROR =
  'The reply was interrupted: the browser or the extension restarted while it ran. Press Retry to continue.';

/** How long an adapter may take to wind down after Stop before the host stops listening to it. */
const STOP_GRACE_MS = 3000;

/** One tab's conversation and its run. */
export interface TabSession {
  readonly tabId: number;
  /** Resolves once the stored conversation has been read. */
  readonly ready: Promise<void>;
  snapshot(): TabSnapshot;
  send(text: string): Promise<void>;
  retry(): Promise<void>;
  stop(): void;
  newChat(): Promise<void>;
  confirm(callId: string, answer: ConfirmationAnswer): void;
  /** Re-reads the tab's tools from the bridge. */
  refreshTools(): Promise<void>;
  /** Writes any pending conversation change now. */
  flush(): Promise<void>;
  /** Called after every change (already batched by emitDelayMs). */
  subscribe(listener: (snapshot: TabSnapshot) => void): () => void;
  /** Resolves when the current run (if any) has ended and been saved. */
  idle(): Promise<void>;
}

export interface TabSessionDeps {
  tabId: number;
  /** The tab's URL when the panel bound it, to adopt a conversation after a browser restart. */
  url?: string;
  store: ConversationStore;
  bridge: HostToolBridge;
  settings: HostSettingsPort;
  /** The adapter chosen now, or why there is none. */
  adapter: () => Promise<AgentAdapter | { unavailable: string }>;
  generateId: () => string;
  saveDelayMs: number;
  emitDelayMs: number;
}

interface LiveCall {
  state: ToolCallState;
  prompt?: string;
}

interface OpenConfirmation extends PendingConfirmation {
  resolve: (answer: ConfirmationAnswer | 'stopped') => void;
}

/**
 * Creates a tab's session: it loads the stored conversation, runs the chosen adapter on the person's messages,
 * folds the stream parts into the conversation, applies the confirmation policy to every tool call, saves after
 * every part (batched, flushed when a run ends) and tells subscribers. A run belongs to the session, not to a
 * panel: it goes on when every panel is closed.
 */
export function createTabSession(deps: TabSessionDeps): TabSession {
  const { tabId, store, bridge, settings } = deps;
  let messages: AgentMessage[] = [];
  let lastRun: RunOutcome | undefined;
  let running = false;
  let controller: AbortController | undefined;
  let current: Promise<void> = Promise.resolve();
  let tools: { tools: ToolDescriptor[]; page?: PageContext } = { tools: [] };
  let toolsKnown = false;
  /** The bridge's entries behind `tools` (frame, document, origin): what a call is bound to once judged. */
  let entries: TabToolEntry[] = [];
  let dropped: TabToolSnapshot['dropped'];
  let agent: WebAgent | undefined;
  let url = deps.url;
  const live = new Map<string, LiveCall>();
  const confirmations = new Map<string, OpenConfirmation>();
  const listeners = new Set<(snapshot: TabSnapshot) => void>();

  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<void> = Promise.resolve();
  let emitTimer: ReturnType<typeof setTimeout> | undefined;

  const snapshot = (): TabSnapshot => ({
    tabId,
    messages: applyLiveCalls(messages, live),
    running,
    ...(lastRun ? { lastRun } : {}),
    confirmations: [...confirmations.values()].map(({ resolve: _resolve, ...c }) => c),
    tools: filterTools(tools.tools, agent),
    toolsKnown,
    ...(dropped?.length ? { toolsDropped: dropped } : {}),
    ...(tools.page ? { page: tools.page } : {}),
  });

  const emit = () => {
    if (emitTimer !== undefined) return;
    emitTimer = setTimeout(() => {
      emitTimer = undefined;
      const value = snapshot();
      for (const listener of [...listeners]) listener(value);
    }, deps.emitDelayMs);
  };

  const write = () => {
    const value = { messages, ...(lastRun ? { lastRun } : {}), ...(running ? { running } : {}), ...(url ? { url } : {}) };
    saving = saving.then(() => store.save(tabId, value)).catch(() => undefined);
    return saving;
  };
  const scheduleSave = () => {
    if (saveTimer !== undefined) return;
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      void write();
    }, deps.saveDelayMs);
  };
  const flush = () => {
    if (saveTimer !== undefined) clearTimeout(saveTimer);
    saveTimer = undefined;
    return write();
  };

  const ready = (async () => {
    const stored = await store.load(tabId, url).catch(() => undefined);
    if (!stored) return;
    messages = stored.messages;
    lastRun = stored.lastRun;
    url ??= stored.url;
    if (stored.running) {
      // The run died with its host: close its open calls and say so, so Retry can pick it up.
      messages = reduceStreamPart(messages, { type: 'finish', reason: 'aborted' });
      lastRun = { reason: 'error', error: INTERRUPTED_RUN_ERROR };
      await flush();
    }
  })();

  const refreshTools = async () => {
    try {
      const fresh = await bridge.getTools(tabId);
      tools = { tools: fresh.tools.map(toDescriptor), page: fresh.page };
      entries = fresh.tools;
      dropped = fresh.dropped;
      toolsKnown = true;
      agent = await settings.siteAgentFor(tools.page?.url ?? url);
    } catch {
      // A page without a content script (a browser page, a store page) has no tools: say so, keep what we had.
      toolsKnown = true;
    }
    emit();
  };

  const ask = (call: ToolCall, origin: string | undefined, reason: string, signal: AbortSignal) =>
    new Promise<ConfirmationAnswer | 'stopped'>((resolve) => {
      if (signal.aborted) return resolve('stopped');
      const where = origin ? ` on ${hostOf(origin)}` : '';
      const prompt = `Allow ${call.name}${where}? ${reason}`;
      const onAbort = () => settle('stopped');
      const settle = (answer: ConfirmationAnswer | 'stopped') => {
        signal.removeEventListener('abort', onAbort);
        confirmations.delete(call.id);
        resolve(answer);
      };
      signal.addEventListener('abort', onAbort);
      confirmations.set(call.id, { callId: call.id, toolName: call.name, ...(origin ? { origin } : {}), prompt, resolve: settle });
      live.set(call.id, { state: 'awaiting-confirmation', prompt });
      emit();
    });

  const callTool = async (call: ToolCall, signal: AbortSignal): Promise<ToolOutput> => {
    // Read the tools afresh: a consequential tool may have appeared (or changed its annotations) since the last
    // snapshot, and the policy must judge the tool that will actually run.
    await refreshTools();
    const tool = tools.tools.find((t) => t.name === call.name);
    // The instance judged (and shown to the person) is the one that may run: the router refuses any other.
    const judged = entries.find((t) => t.name === call.name);
    const origin = originOf(tools.page?.url ?? url);
    if (tool) {
      const { confirmation, grants } = await settings.read().catch(() => ({ confirmation: 'consequential' as const, grants: [] }));
      const granted = grants.some((g) => g.origin === origin && g.tool === call.name);
      if (needsConfirmation(confirmation, tool.annotations, granted)) {
        const reason = tool.annotations?.consequentialHint
          ? 'The site marks it as consequential.'
          : 'The site does not mark it as read-only.';
        const answer = await ask(call, origin, reason, signal);
        if (answer === 'deny') return errorOutput(DECLINED_CALL_ERROR(call.name));
        if (answer === 'stopped') return errorOutput(STOPPED_BEFORE_CONFIRMATION_ERROR);
        if (answer === 'allow-always' && origin) await settings.grantTool(origin, call.name).catch(() => undefined);
      }
    }
    live.set(call.id, { state: 'running' });
    emit();
    const output = await bridge.callTool(tabId, call, {
      signal,
      ...(judged ? { expect: expectedToolOf(judged, call) } : {}),
      onState: (update) => {
        live.set(call.id, { state: update.state, prompt: update.prompt });
        emit();
      },
    });
    // A call often changes the page's tools (a product page adds add_to_cart). The bridge knows by the time the
    // call returns; the change notice may not have reached us yet, and the adapter reads req.tools right away.
    await refreshTools();
    return output;
  };

  const run = (conversation: AgentMessage[]) => {
    const previous = current;
    current = (async () => {
      await previous;
      const own = new AbortController();
      controller = own;
      messages = conversation;
      lastRun = undefined;
      running = true;
      emit();
      await refreshTools();
      let state = initialRunState(conversation);
      const fold = (part: AgentStreamPart) => {
        state = reduceRunState(state, part);
        messages = state.messages;
        if (part.type === 'tool-result' || part.type === 'tool-error') live.delete(part.id);
        scheduleSave();
        emit();
      };
      try {
        const adapter = await deps.adapter();
        if ('unavailable' in adapter) {
          fold({ type: 'error', error: adapter.unavailable });
        } else {
          const request: AgentRunRequest = {
            messages: conversation,
            get tools() {
              return filterTools(tools.tools, agent);
            },
            signal: own.signal,
            callTool: (call) => callTool(call, own.signal),
            ...(agent ? { agent } : {}),
            ...(tools.page ? { page: tools.page } : {}),
          };
          const iterator = adapter.run(request)[Symbol.asyncIterator]();
          // Stop must end the run even if an adapter ignores its signal: after a grace period we stop reading.
          const abandoned = new Promise<'abandoned'>((resolve) =>
            own.signal.addEventListener('abort', () => setTimeout(() => resolve('abandoned'), STOP_GRACE_MS), { once: true }),
          );
          while (true) {
            const next = await Promise.race([iterator.next(), abandoned]);
            if (next === 'abandoned' || next.done) {
              if (next === 'abandoned') void iterator.return?.().catch(() => undefined);
              break;
            }
            fold(next.value);
            if (state.status !== 'running') {
              void iterator.return?.()?.catch(() => undefined);
              break;
            }
          }
        }
      } catch (error) {
        if (state.status === 'running') fold({ type: 'error', error: `The agent failed: ${errorMessage(error)}` });
      }
      // An adapter that ends without saying how is treated as finished (or stopped, if Stop was pressed).
      if (state.status === 'running') fold({ type: 'finish', reason: own.signal.aborted ? 'aborted' : 'stop' });
      for (const open of [...confirmations.values()]) open.resolve('stopped');
      live.clear();
      running = false;
      controller = undefined;
      lastRun =
        state.status === 'error'
          ? { reason: 'error', error: state.error?.message ?? 'The run failed.', ...(state.error?.code ? { code: state.error.code } : {}) }
          : { reason: state.finishReason ?? 'stop' };
      emit();
      await flush();
    })();
    return current;
  };

  return {
    tabId,
    ready,
    snapshot,
    async send(text) {
      await ready;
      const trimmed = text.trim();
      if (!trimmed || running) return;
      const user: AgentMessage = { id: deps.generateId(), role: 'user', parts: [{ type: 'text', text: trimmed }] };
      await run([...messages, user]);
    },
    async retry() {
      await ready;
      if (running) return;
      const conversation = retryMessages(messages);
      if (conversation.length === 0) return;
      await run(conversation);
    },
    stop() {
      controller?.abort();
    },
    async newChat() {
      await ready;
      controller?.abort();
      await current;
      messages = [];
      lastRun = undefined;
      emit();
      await flush();
    },
    confirm(callId, answer) {
      confirmations.get(callId)?.resolve(answer);
      emit();
    },
    refreshTools: async () => {
      await ready;
      await refreshTools();
    },
    flush: async () => {
      await ready;
      await flush();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    idle: async () => {
      await ready;
      await current;
      await saving;
    },
  };
}

/** The conversation with live call states (awaiting-confirmation and its prompt) laid over still-open calls. */
function applyLiveCalls(messages: AgentMessage[], live: Map<string, LiveCall>): AgentMessage[] {
  if (live.size === 0) return messages;
  return messages.map((message) => {
    if (!message.parts.some((p) => p.type === 'tool' && live.has(p.id))) return message;
    return {
      ...message,
      parts: message.parts.map((part): AgentPart => {
        const call = part.type === 'tool' ? live.get(part.id) : undefined;
        if (part.type !== 'tool' || !call || (part.state !== 'running' && part.state !== 'awaiting-confirmation')) return part;
        const { prompt: _prompt, ...rest } = part;
        return { ...rest, state: call.state, ...(call.prompt ? { prompt: call.prompt } : {}) };
      }),
    };
  });
}

/** What the model and the panel need of a tool; where it lives in the page stays with the bridge. */
function toDescriptor(tool: ToolDescriptor): ToolDescriptor {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

function filterTools<T extends { name: string }>(tools: T[], agent: WebAgent | undefined): T[] {
  if (!agent?.tools) return tools;
  const allowed = new Set(agent.tools);
  return tools.filter((t) => allowed.has(t.name));
}

function errorOutput(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}

function originOf(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const origin = new URL(href).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function hostOf(origin: string): string {
  return new URL(origin).host;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import type { ToolCall, ToolOutput } from '../agent/types';
import type { CallInProgress, CallTimeline } from '../call-log/call-timeline';
import type { ConfirmationAnswer, PendingConfirmation } from '../messaging/agent-messages';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import type { HostSettingsPort, HostRouterClient } from './agent-host-deps';
import type { LiveCalls } from './create-live-calls';
import { type CallOrigin, callPageTool } from './call-page-tool';
import { createConfirmationFlow } from './create-confirmation-flow';
import type { RunGuard } from './create-run-guard';
import type { TabTools } from './create-tab-tools';
import { runCallByHand } from './run-call-by-hand';
import type { ClientCallRequest } from '../messaging/client-call-request';
import { runClientCall } from './run-client-call';
import { runOnPage } from './run-on-page';
import type { TaskFlow } from '../messaging/task-tabs';

interface TabCallsDeps {
  tabId: number;
  bridge: HostRouterClient;
  settings: Pick<HostSettingsPort, 'read' | 'grantTool'>;
  /** Ids for calls by hand and for questions (unguessable: crypto.randomUUID). */
  generateId: () => string;
  tools: TabTools;
  timeline: CallTimeline;
  /** The rules of the agent's run going now, if one is. */
  guard: () => RunGuard | undefined;
  /** The origins whose data the conversation holds (its runs' top sites, the frames whose results it read). */
  sites: () => readonly string[];
  /** The conversation now holds what a tool of this origin returned. */
  read: (origin: string) => void;
  /** The top-level site the tab shows now. */
  currentSite: () => string | undefined;
  /** The calls' live states, which the session owns and lays over the conversation (create-live-calls.ts). */
  live: Pick<LiveCalls, 'set' | 'end'>;
  /** What the panel shows changed. */
  emit: () => void;
  /** The person answered "Allow for this task" to an agent's question (create-task-flows.ts); absent: never offered. */
  allowFlows?: (flows: TaskFlow[]) => void;
}

/** One tab's tool calls, as its session makes and answers them. */
export interface TabCalls {
  /** An agent's call (`from.by` 'agent', with its run's rules) or the person's (call-page-tool.ts). */
  callTool(call: ToolCall, signal: AbortSignal, from: CallOrigin): Promise<ToolOutput>;
  /** The person's call from the inspector, with a new id (run-call-by-hand.ts). */
  runByHand(name: string, input: Record<string, unknown>, requestId: string): Promise<void>;
  /** A desktop agent's call (run-client-call.ts). */
  runForClient(call: ToolCall, request: ClientCallRequest): Promise<{ output: ToolOutput; ran: boolean }>;
  /** The open questions, the agents' and then the desktop agents'. */
  questions(): PendingConfirmation[];
  /** Answers the open question with this id, whoever asked it; any other id does nothing. */
  confirm(confirmationId: string, answer: ConfirmationAnswer): void;
  /** The clear arguments of the open question with this id, when it masked secret ones (the person's Reveal). */
  reveal(confirmationId: string): string | undefined;
  /** The agent's run ended: its open questions end as stopped (desktop agents' questions stay). */
  endRunQuestions(): void;
  /** Stop: the person's calls by hand are cancelled. */
  stopHandCalls(): void;
}

/**
 * Creates a tab's tool calls: the agent's, the person's by hand and desktop agents', each through the tab's tools,
 * the confirmation policy and the page, recorded in the timeline, with the call's live state on its card. Desktop
 * agents' questions are their own flow: an agent run's end does not answer them.
 */
export function createTabCalls(deps: TabCallsDeps): TabCalls {
  const { tools, timeline, live, emit } = deps;
  const handRuns = new Set<AbortController>();
  const setLive: LiveCalls['set'] = (callId, call) => live.set(callId, call);
  const dropLive = (callId: string) => live.end(callId);
  const currentTools = () => tools.current();
  /** The model named a tool the page does not offer (yet): wait for it, showing the person what for. */
  const waitForTool = (call: ToolCall, signal: AbortSignal) => {
    const name = String(call.name).replace(/\s+/g, ' ').slice(0, 64);
    setLive(call.id, { state: 'running', prompt: `Waiting for the page to offer ${name}…` });
    return tools.waitFor(call.name, signal);
  };
  /** The run's tab names no page right now (it is loading): wait a moment for it, showing the person what for. */
  const waitForPage = async (call: ToolCall, signal: AbortSignal) => {
    setLive(call.id, { state: 'running', prompt: 'Waiting for the tab’s page to load…' });
    await tools.waitForPage(signal);
  };
  const agentQuestions = createConfirmationFlow({
    settings: deps.settings,
    generateId: deps.generateId,
    onAsking: (callId, prompt) => setLive(callId, { state: 'awaiting-confirmation', prompt }),
    onChange: () => emit(),
    ...(deps.allowFlows ? { allowFlows: deps.allowFlows } : {}),
  });
  const clientQuestions = createConfirmationFlow({
    settings: deps.settings,
    generateId: deps.generateId,
    onAsking: () => emit(),
    onChange: () => emit(),
  });
  const onPage = (call: ToolCall, tool: TabToolEntry, signal: AbortSignal, record: CallInProgress) =>
    runOnPage(call, tool, signal, record, { tabId: deps.tabId, bridge: deps.bridge, currentTools, setLive });
  const callTool = (call: ToolCall, signal: AbortSignal, from: CallOrigin) =>
    callPageTool(call, signal, from, {
      tools,
      currentTools,
      waitForTool,
      waitForPage,
      guard: deps.guard,
      sites: deps.sites,
      read: deps.read,
      timeline,
      confirmations: agentQuestions,
      runOnPage: onPage,
    });

  return {
    callTool,
    runByHand: (name, input, requestId) =>
      runCallByHand({ id: deps.generateId(), name, input }, requestId, { tools, timeline, callTool, handRuns, settled: dropLive }),
    runForClient: (call, request) =>
      runClientCall(call, request, {
        tools,
        currentSite: deps.currentSite,
        timeline,
        confirmations: clientQuestions,
        runOnPage: onPage,
        settled: dropLive,
      }),
    questions: () => [...agentQuestions.open(), ...clientQuestions.open()],
    confirm: (confirmationId, answer) => {
      agentQuestions.confirm(confirmationId, answer);
      clientQuestions.confirm(confirmationId, answer);
    },
    reveal: (confirmationId) => agentQuestions.reveal(confirmationId) ?? clientQuestions.reveal(confirmationId),
    endRunQuestions: () => agentQuestions.stopAll(),
    stopHandCalls: () => {
      for (const hand of handRuns) hand.abort();
    },
  };
}

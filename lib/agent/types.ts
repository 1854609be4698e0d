/**
 * The contract between the chat (side panel) and the agent that drives it (docs/architecture.md § The adapter contract).
 * An adapter owns the model and tool loop and reports what happens as a stream of parts; the panel only renders them.
 * Both the local (on-device) and the cloud adapter implement exactly this.
 */

import type { JSONSchema } from '../schema/json-schema';

export type { JSONSchema };

/** A page tool as the model sees it. */
export interface ToolDescriptor {
  /** Model-facing name: unique in the tab and safe for every provider (^[a-zA-Z0-9_-]{1,64}$). */
  name: string;
  /** What it does; the model decides from this. */
  description: string;
  /** Its parameters as JSON Schema. */
  inputSchema: JSONSchema;
  /** Human title, when the page gave one. */
  title?: string;
  /** WebMCP annotations, when the page gave them. */
  annotations?: ToolAnnotations;
  /** The result's shape in one line, from the tool's outputSchema (summarizeOutputSchema), when it declares one. */
  returns?: string;
}

/** WebMCP tool annotations the extension understands. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  untrustedContentHint?: boolean;
  consequentialHint?: boolean;
  /** For the page's developers, not for agents (is-debugging-tool.ts): offered to no model, run by hand only. */
  debugging?: boolean;
}

/** One content block of a tool result (MCP CallToolResult content). */
export type ToolContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; text?: string; mimeType?: string } };

/** A tool call's result: an MCP CallToolResult. */
export interface ToolOutput {
  content: ToolContent[];
  isError?: boolean;
  structuredContent?: unknown;
}

/** A tool call the model made. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** Where a tool call is. awaiting-confirmation: parked on a control the person must click. */
export type ToolCallState = 'running' | 'awaiting-confirmation' | 'done' | 'error' | 'cancelled';

/** Provider data that must travel with reasoning or a call (Anthropic signatures, OpenAI item ids). */
export type ProviderMetadata = Record<string, Record<string, unknown>>;

/** One part of a conversation turn. */
export type AgentPart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string; providerMetadata?: ProviderMetadata }
  | {
      type: 'tool';
      id: string;
      name: string;
      input: unknown;
      state: ToolCallState;
      output?: ToolOutput;
      error?: string;
      /** What the person should click while the call awaits confirmation. */
      prompt?: string;
      /** A sub-agent's nested run behind a delegate_to_<id> call. */
      agent?: { id: string; messages: AgentMessage[] };
      providerMetadata?: ProviderMetadata;
      /**
       * The input's secret paths under the schema this call was made with (lib/transcript/secret-paths-of.ts), kept
       * with the call so exports mask them after the tool has left the page. Each path is property names from the
       * top, `*` for every array item; never sent to a model.
       */
      secretPaths?: string[][];
    };

/** One turn of the conversation. */
export interface AgentMessage {
  id: string;
  role: 'user' | 'assistant';
  parts: AgentPart[];
}

/** Codes that let the panel explain a failed run. */
export type AgentErrorCode = 'chat_disabled' | 'rate_limited' | 'bad_request' | 'network' | 'site_changed';

/** What an adapter reports while it runs, in order. Ends with finish or error. */
export type AgentStreamPart =
  | { type: 'message-start'; messageId: string }
  | { type: 'text-delta'; messageId: string; delta: string }
  | { type: 'reasoning'; messageId: string; text: string; providerMetadata?: ProviderMetadata }
  | {
      type: 'tool-call';
      messageId: string;
      id: string;
      name: string;
      input: unknown;
      providerMetadata?: ProviderMetadata;
    }
  | { type: 'tool-result'; id: string; output: ToolOutput }
  | { type: 'tool-error'; id: string; error: string }
  | { type: 'step-finish'; step: number }
  /**
   * One part of a sub-agent's nested run, behind the delegate_to_<agentId> call `id`. Folded into that tool
   * part's `agent.messages` (the panel renders it nested); its finish or error ends the nested run, not this one.
   */
  | { type: 'agent-part'; id: string; agentId: string; part: AgentStreamPart }
  | { type: 'finish'; reason: 'stop' | 'max-steps' | 'aborted' }
  | { type: 'error'; error: string; code?: AgentErrorCode };

/** The page's agent: the extension's per-site settings play this role (instructions, max steps, tool filter). */
export interface WebAgent {
  id: string;
  instructions?: string;
  maxSteps?: number;
  /** Names of the tools this agent may use; all when unset. */
  tools?: readonly string[];
  /** What a person calls it ("Checkout"); sub-agents have one, the site's own agent need not. */
  name?: string;
  /**
   * The agents this one may hand a task to, each as a `delegate_to_<id>` tool (selectTools). Their ids match
   * SUB_AGENT_ID_PATTERN; delegation nests at most MAX_DELEGATION_DEPTH deep (lib/agent/select-tools.ts).
   */
  subAgents?: readonly WebAgent[];
}

/** What an adapter gets for one run: one user message, possibly many model steps. */
export interface AgentRunRequest {
  /** The conversation so far, ending with the new user message (on Retry, with the last finished tool call). */
  messages: AgentMessage[];
  /** The page's tools right now. A getter: read it fresh before every model call. */
  readonly tools: ToolDescriptor[];
  /** Aborts when the person presses Stop. */
  signal: AbortSignal;
  /**
   * Run a tool on the page, cursor and all. Never rejects: failures come back as isError results. `agentPath` is
   * the sub-agents' ids from the site's agent down to the one that made the call; delegation fills it in
   * (runSubAgent), an adapter never does. The host runs only a tool offered to that agent (isToolOffered).
   */
  callTool: (call: ToolCall, agentPath?: readonly string[]) => Promise<ToolOutput>;
  /** The page's agent, when set. */
  agent?: WebAgent;
  /** Where the person is: used for the system prompt's page line. */
  page?: PageContext;
  /**
   * The site the run belongs to: the tab's top-level origin as the browser reports it (not the page's word). In a
   * task across tabs the on-device ranker favours that site's tools (rankTools' `here`).
   */
  site?: string;
  /** How many delegations deep this run is: unset (0) for the person's own request, 1 for a sub-agent's run. */
  delegationDepth?: number;
}

/** The page the conversation is about, for the system prompt. */
export interface PageContext {
  url?: string;
  path?: string;
  title?: string;
  /** The page's main h1, outside any extension UI. */
  h1?: string;
}

/** Whether an adapter can run right now. */
export type AdapterStatus =
  | { state: 'ready' }
  | { state: 'unavailable'; reason: string }
  | { state: 'needs-download'; bytes?: number; note?: string }
  | { state: 'downloading'; progress: number }
  | { state: 'loading'; progress?: number }
  | { state: 'error'; error: string };

/** One model in the picker. */
export interface ModelChoice {
  id: string;
  label: string;
  brief: string;
  bytes?: number;
  cached?: boolean;
  recommended?: boolean;
  /** Why the recommended model fits this device, for the panel. */
  why?: string;
  selected?: boolean;
  /** What "Test this device" measured for it here, in words ("24 tok/s on this device"). */
  measured?: string;
}

/** An agent the chat can talk to: the model and tool loop behind a stream of parts. */
export interface AgentAdapter {
  id: string;
  label: string;
  run: (req: AgentRunRequest) => AsyncIterable<AgentStreamPart>;
  status?: () => AdapterStatus;
  subscribe?: (listener: () => void) => () => void;
  prepare?: (signal?: AbortSignal) => Promise<void>;
  models?: () => readonly ModelChoice[];
  selectModel?: (id: string) => Promise<void>;
}

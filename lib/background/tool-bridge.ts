/**
 * The one interface the agent host uses to reach page tools, whatever context it runs in:
 * - Firefox: the host is the background page itself and uses the router directly (createToolRouter);
 * - Chrome: the host is the offscreen document and uses createToolBridgeClient, which talks to the router in
 *   the service worker with runtime messages (lib/messaging/bridge-messages.ts).
 */
import type { JSONSchema, PageContext, ToolCall, ToolDescriptor, ToolOutput } from '../agent/types';
import type { ExpectedTool } from './expected-tool';

/** One tool of a tab, as the model sees it plus where it lives. */
export interface TabToolEntry extends ToolDescriptor {
  /** The tool's own WebMCP name in its frame (may contain dots; `name` is the provider-safe one). */
  originalName: string;
  /** The origin of the frame that registered it. */
  origin: string;
  /** The extension frame id (0 = top frame). */
  frameId: number;
  /** The document that registered it, as the browser attests it (Chrome; Firefox gives none). */
  documentId?: string;
  /** Why the page's inputSchema was replaced by an empty object schema. */
  schemaError?: string;
  /** The tool's outputSchema, for the inspector. */
  outputSchema?: JSONSchema;
  /** A declarative `<form toolname>` tool. */
  declarative?: boolean;
  /** Declarative without toolautosubmit: the call waits for the person to submit the form. */
  needsConfirmation?: boolean;
}

/** Tools of a tab the agent does not get, and why (the panel's Tools view shows the note). */
export interface DroppedTools {
  count: number;
  /** 'not-delegated': frames of other sites the page did not allow tools; 'tab-cap': over the per-tab caps. */
  reason: 'not-delegated' | 'tab-cap';
  /** The same in words for the person. */
  note: string;
}

/** A tab's tools (all frames, unique model-facing names) and its top page, for the system prompt. */
export interface TabToolSnapshot {
  tabId: number;
  tools: TabToolEntry[];
  page: PageContext;
  /** Tools left out of `tools`, when any were. */
  dropped?: DroppedTools[];
  /** Grows with every change of the tab (see the router): of two snapshots, the higher revision is the newer. */
  revision?: number;
}

/** A running call's parked state, reported while it waits for the person. */
interface ToolCallStateUpdate {
  state: 'awaiting-confirmation';
  /** What the person should click, in words. */
  prompt: string;
}

export interface ToolCallOptions {
  /** Stop: aborts the call (the page gets toolcancel) and resolves with `Error [cancelled]: …`. */
  signal?: AbortSignal;
  onState?: (state: ToolCallStateUpdate) => void;
  /** This call's time limit in the page, instead of the router's default (30 s). */
  timeoutMs?: number;
  /**
   * The tool instance the host judged and the person approved (see expectedToolOf). When the name now reaches
   * anything else (another document, frame, origin or tool, or other arguments), nothing runs and the call ends
   * with `Error [tool_changed]: …`.
   */
  expect?: ExpectedTool;
}

/** Page tools, reached through the background. */
export interface ToolBridge {
  /**
   * The tab's current tool snapshot. The tab is watched from then on: its documents get the whole bridge, and its
   * changes reach subscribers (and, through the client, a host in another context) as they happen.
   */
  getTools(tabId: number): Promise<TabToolSnapshot>;
  /**
   * Runs one tool call on the tab (one at a time per tab; later calls wait). Never rejects: failures come back
   * as `{isError: true}` outputs whose text is `Error [code]: message` (see lib/webmcp/ERROR-CODES.md).
   */
  callTool(tabId: number, call: ToolCall, options?: ToolCallOptions): Promise<ToolOutput>;
  /** Called with a tab id whenever that tab's tools change. Returns an unsubscribe function. */
  subscribe(listener: (tabId: number) => void): () => void;
}

/**
 * Message shapes of the tool bridge, declared once for every end:
 *
 *   content script (isolated world, one per frame)  ⇄  background router  ⇄  agent host (offscreen document)
 *
 * Content scripts are page-adjacent: everything they send is data about the page, never an instruction, and
 * nothing privileged travels towards them (only a tool name, its input and limits).
 */
import type { JSONSchema, ToolAnnotations, ToolCall, ToolOutput } from '../agent/types';
import type { ExpectedTool } from '../background/expected-tool';
import type { TabToolSnapshot } from '../background/tool-bridge';

/** One tool as a frame reports it: already sanitised (JSON-safe copies, bounded strings). */
export interface FrameTool {
  /** The tool's own WebMCP name (may contain dots). */
  name: string;
  title?: string;
  description: string;
  inputSchema: JSONSchema;
  annotations?: ToolAnnotations;
  /** Why the page's inputSchema was replaced by an empty object schema, when it was malformed. */
  schemaError?: string;
  /** The tool's outputSchema, when it declares one (shown in the inspector; never sent to a model). */
  outputSchema?: JSONSchema;
  /** A declarative `<form toolname>` tool. */
  declarative?: boolean;
  /** Declarative and without toolautosubmit: the person submits the form. */
  needsConfirmation?: boolean;
}

/** What a document says about itself, for the system prompt and for a navigated call's result. */
export interface FramePage {
  url: string;
  title: string;
  /** The page's main h1, as text. */
  h1?: string;
  /** Parsed `<script type="application/ld+json">` blocks, bounded. */
  jsonLd?: unknown[];
}

/**
 * A frame's current tool list and page context. `url` and `origin` (and `page.url`) are the frame's own claim: the
 * router replaces them with what the browser attests (the message's `sender`) before anything uses them.
 */
export interface FrameReport {
  url: string;
  origin: string;
  page: FramePage;
  tools: FrameTool[];
}

/** A call's end as one frame saw it. */
export type FrameCallResult =
  | { kind: 'output'; output: ToolOutput; report?: FrameReport }
  /** executeTool resolved null (or the document unloaded): the call navigated this frame. */
  | { kind: 'navigated' };

/** Content script → background. */
export type FrameToBackgroundMessage =
  /** A new document started in this frame (foundation: the background learns frames without webNavigation). */
  | { type: 'frame-ready'; url: string }
  /** This frame's tools or page changed (debounced). */
  | { type: 'bridge:frame-tools'; report: FrameReport }
  /** A running call is parked on a control the person must click. */
  | { type: 'bridge:frame-call-state'; callId: string; state: 'awaiting-confirmation'; prompt: string }
  /** The document is unloading while this call runs: the call navigated. */
  | { type: 'bridge:frame-navigating'; callId: string }
  /** The frame shows WebMCP (stub.ts): load the rest of the bridge into it. `native`: the browser has WebMCP. */
  | { type: 'bridge:load'; native: boolean }
  /** The token this frame's parent posted into it (lib/webmcp/offer-tools-delegation.ts); the sender is what counts. */
  | { type: 'bridge:delegation-token'; token: string };

/** Background → one frame's content script (tabs.sendMessage with frameId). */
export type BackgroundToFrameMessage =
  | { type: 'ping' }
  /** Answer: FrameReport. */
  | { type: 'bridge:list' }
  /** Answer: FrameCallResult. */
  | { type: 'bridge:call'; callId: string; name: string; input: unknown; timeoutMs: number; maxResultChars: number }
  /** Abort a running call's signal (the page gets toolcancel). Answer: nothing. */
  | { type: 'bridge:cancel'; callId: string }
  /** Post a one-time token into each child frame. Answer: DelegationOffer[] (lib/webmcp/offer-tools-delegation.ts). */
  | { type: 'bridge:offer-delegation' };

/** Agent host → background (runtime.sendMessage). */
export type HostToBackgroundMessage =
  /** Answer: TabToolSnapshot. Starts watching the tab: its changes are pushed from then on (bridge:tools-changed). */
  | { type: 'bridge:get-tools'; tabId: number }
  /** Answer: HostCallAnswer (never an error response). */
  | { type: 'bridge:call-tool'; tabId: number; call: ToolCall; requestId: string; expect?: ExpectedTool }
  | { type: 'bridge:cancel-call'; requestId: string }
  /**
   * Sent every 20 s while a call is pending (a form can wait minutes for the person): it keeps Chrome from
   * stopping the idle service worker that holds the call. Answer: true.
   */
  | { type: 'bridge:keepalive' }
  /** Whether the browser has native WebMCP, as the host's document sees it (Chrome's page-world stub follows it). */
  | { type: 'bridge:native-webmcp'; native: boolean };

/** The answer to bridge:call-tool: the call's output, and the tab's tools after it. */
export interface HostCallAnswer {
  output: ToolOutput;
  snapshot: TabToolSnapshot;
}

/** Background → agent host (runtime.sendMessage broadcast; the host filters by requestId / tabId). */
export type BackgroundToHostMessage =
  /** A watched tab's tools or page changed: the snapshot after the change. */
  | { type: 'bridge:tools-changed'; tabId: number; snapshot: TabToolSnapshot }
  | { type: 'bridge:call-state'; requestId: string; state: 'awaiting-confirmation'; prompt: string };

/** Type guard over untrusted input: a message whose `type` is one of the bridge's. */
export function isBridgeMessage(message: unknown, type: string): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

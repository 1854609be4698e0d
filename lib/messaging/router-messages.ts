/**
 * Message shapes of the tool bridge, declared once for every end:
 *
 *   content script (isolated world, one per frame)  ⇄  background router  ⇄  agent host (offscreen document)
 *
 * The router and Chrome's agent host talk on a request line over a runtime Port (RouterLine, RouterPushLine).
 *
 * Content scripts are page-adjacent: everything they send is data about the page, never an instruction, and
 * nothing privileged travels towards them (only a tool name, its input and limits).
 */
import type { JSONSchema, ToolAnnotations, ToolCall, ToolOutput } from '../agent/types';
import type { ChannelMessage } from './channel';
import type { LineMessage } from './create-request-line';
import type { LegacyApi, TabToolSnapshot } from './tab-tool-snapshot';

/** One tool as a frame reports it: already sanitised (JSON-safe copies, bounded strings). */
/**
 * What the tool card says while a declarative form without toolautosubmit waits for the person's submit. The
 * background's own words, for calls of such forms only: nothing of the page (its button's text, its tool's title)
 * goes into it.
 */
export const FORM_WAITS_PROMPT = 'Review the form on the page and press Submit.';

/**
 * The runtime Port the background holds to the top document of each tab whose bridge runs (tabs.connect,
 * lib/background/create-document-ports.ts): it closes when the document goes, so the router hears of a renderer
 * that crashed, which no tab or navigation event tells. Nothing is sent on it.
 */
export const DOCUMENT_PORT_NAME = 'webmcp-agent-document';

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
  /** Registered through an API generation native WebMCP no longer has (for the audit; see LegacyApi). */
  legacyApi?: LegacyApi;
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
/**
 * One tool's weight at most (its name, title, description and input schema, in UTF-8 bytes): 64 KiB. A heavier one
 * is left out, by the frame before it reports and by the router whatever the frame says (docs/security.md).
 */
export const MAX_TOOL_BYTES = 64 * 1024;

export interface FrameReport {
  url: string;
  origin: string;
  page: FramePage;
  tools: FrameTool[];
  /**
   * Tools the frame left out as heavier than one tool may be (lib/background/page-limits.ts, MAX_TOOL_BYTES): a
   * count only, claimed by the frame; the router counts what it cuts itself too.
   */
  oversized?: number;
}

/** A call's end as one frame saw it. */
export type FrameCallResult =
  | { kind: 'output'; output: ToolOutput; report?: FrameReport }
  /** executeTool resolved null (or the document unloaded): the call navigated this frame. */
  | { kind: 'navigated' };

/** What a frame's bridge says when pinged (tests and the foundation check read it). */
interface FramePing {
  world: 'isolated';
  url: string;
  /** Whether the bridge reached the page's world. */
  mainWorld: boolean;
}

/** What a parent frame says of one of its child frames. */
export interface DelegationOffer {
  token: string;
  /** The `<iframe>`'s `allow` attribute ('' when absent, or for `<frame>`, `<object>`, `<embed>`). */
  allow: string;
  /** The element's src as a URL ('' when it has none). */
  src: string;
}

/** The limits and identity of one call, as the router sends it to the frame that owns the tool. */
export interface FrameCallRequest {
  callId: string;
  /** The tool's own WebMCP name in the frame. */
  name: string;
  input: unknown;
  timeoutMs: number;
  maxResultChars: number;
}

/** What a running call tells the router before it ends (a FrameCallLine update). */
export type FrameCallUpdate =
  /** Parked on a control the person must click (the router puts its own words in the card). */
  | { state: 'awaiting-confirmation' }
  /** The document is unloading while this call runs (or settles): the call navigated. */
  | { state: 'navigating' };

/**
 * The request line between the router and one frame's document (lib/messaging/create-request-line.ts, carried by
 * bridge/line and frame/line): a call's id, its cancel (the tool's signal aborts, the page gets toolcancel), its
 * updates, and its failure when the document goes away.
 */
export interface FrameCallLine {
  'bridge/call': { request: FrameCallRequest; answer: FrameCallResult; update: FrameCallUpdate };
}

/** The tool instance a call must still reach, as the host saw it in the tab's snapshot (router/call-tool's `expect`). */
export interface ExpectedTool {
  frameId: number;
  /** The document that registered it (Chrome); absent where the browser attests none (Firefox). */
  documentId?: string;
  origin: string;
  /** The tool's own WebMCP name. */
  originalName: string;
  /** The arguments the person saw. */
  input: unknown;
}

/**
 * A tool of the polyfill that its document exposed to other origins (`registerTool(tool, {exposedTo})`), as the
 * frame's bridge tells the background: plain data, every field a claim about the frame's own tool.
 */
export interface ExposedTool {
  name: string;
  title: string;
  description: string;
  /** The input schema as JSON text, when the tool has one. */
  inputSchemaJson?: string;
  /** As the polyfill lists them: every hint once the page gave any. */
  annotations?: Record<string, boolean>;
  /** The serialised origins this tool is exposed to. */
  exposedTo: string[];
}

/** A tool of another frame of the tab that is exposed to the asking frame's origin, as the background lists it. */
export interface ExposedToolEntry {
  /** The owning frame, and its place in the frame tree (child indexes from the top, as that frame said). */
  frameId: number;
  path: number[];
  /** The owning frame's origin, as the browser attests it. */
  origin: string;
  name: string;
  title: string;
  description: string;
  inputSchemaJson?: string;
  annotations?: Record<string, boolean>;
}

/** How an exposed tool's call ended in its own document: its result, or the error the caller's promise rejects with. */
export type ExposedCallAnswer = { ok: true; value: string | null } | { ok: false; name: string; message: string };

/**
 * Content script → background (runtime.sendMessage). Most are not answered: the router learns, and checks every field.
 * The frame is who the browser says sent it (`sender`), never what a message claims.
 */
export interface FrameChannel {
  /** The bridge started in a new document of this frame (frame-connector.ts): the router forgets the frame's earlier one. */
  /**
   * A new document's bridge. `needsDelegation`: the document found a frame of another origin above it, or an
   * `<iframe allow>` that takes tools away (lib/webmcp/same-origin-ancestry.ts); a claim that can only take tools away.
   */
  'frame/ready': { request: { url: string; needsDelegation?: boolean }; answer: undefined };
  /** The frame shows WebMCP (stub.ts): load the rest of the bridge into it. `native`: the browser has WebMCP. */
  'frame/load': { request: { native: boolean }; answer: undefined };
  /**
   * This frame's tools or page changed (coalesced and paced). Answered with how long the frame should wait before
   * its next report (lib/background/create-page-budget.ts); nothing for a message over the tab's limits.
   */
  'frame/tools': { request: { report: FrameReport }; answer: { nextReportInMs: number } | undefined };
  /**
   * A message of this document's call line (FrameCallLine): an update of a running call, or an answer. The router
   * gives it to the line of the document the browser attests, never another's.
   */
  'frame/line': { request: { message: LineMessage }; answer: undefined };
  /** The token this frame's parent posted into it (lib/isolated-world/offer-tools-delegation.ts); the sender is what counts. */
  'frame/delegation-token': { request: { token: string }; answer: undefined };
  /**
   * May this frame use WebMCP (the `tools` permissions policy)? Asked by the bridge of a frame that is cross-origin
   * with its top, for the polyfill's NotAllowedError; answered about the sender the browser attests, never another.
   */
  'frame/may-use-tools': { request: object; answer: boolean };
  /**
   * Tool continuations (lib/background/create-continuations.ts), asked for the page's world: a token for the call
   * running in this frame (null when it is not), the next document's claim of a token, and the result it resumes
   * the call with. All three are answered about the attested sender.
   */
  'frame/continuation-token': { request: { callId: string }; answer: string | null };
  'frame/resume': { request: { token: string }; answer: boolean };
  'frame/resume-result': { request: { token: string; output: ToolOutput }; answer: boolean };
  /**
   * The tools this frame's polyfill exposes to other origins now (all of them, replacing what it said before), and
   * where the frame sits in the tree (lib/webmcp/window-path.ts). Kept only for a frame that may use tools.
   */
  'frame/exposed': { request: { tools: ExposedTool[]; path: number[] }; answer: undefined };
  /**
   * The tools other frames of this tab, of one of `fromOrigins`, expose to this frame's attested origin. Answered
   * about the sender the browser attests; nothing for a frame that may not use tools.
   */
  'frame/exposed-tools': { request: { fromOrigins: string[] }; answer: ExposedToolEntry[] };
  /** Run another frame's tool that is exposed to this frame's origin; `input` is JSON text. */
  'frame/run-exposed': {
    request: { callId: string; frameId: number; origin: string; name: string; input: string };
    answer: ExposedCallAnswer;
  };
  /** The caller stopped its call (frame/run-exposed): the tool's own signal aborts. */
  'frame/cancel-exposed': { request: { callId: string }; answer: undefined };
}

/** Background → one frame's bridge (tabs.sendMessage to a document or frame). Answers come from the page's side. */
export interface ConnectorChannel {
  'bridge/ping': { request: object; answer: FramePing };
  'bridge/list': { request: object; answer: FrameReport };
  /**
   * A message of the router's call line to this document (FrameCallLine): an ask is answered, when it ends, with its
   * final line message (so a document that goes away meanwhile makes the browser fail the send, and with it the
   * line); anything else with null.
   */
  'bridge/line': { request: { message: LineMessage }; answer: LineMessage | null };
  /** Post a one-time token into each child frame (lib/isolated-world/offer-tools-delegation.ts). */
  'bridge/offer-delegation': { request: object; answer: DelegationOffer[] };
  /** A tool exposed to this frame's origin came or went in another frame: the page's modelContext fires toolchange. */
  'bridge/exposed-changed': { request: object; answer: undefined };
  /** Run this frame's exposed tool for a frame of origin `caller` (`input` is JSON text). */
  'bridge/run-exposed': { request: { callId: string; name: string; input: string; caller: string }; answer: ExposedCallAnswer };
  /** Stop a call of bridge/run-exposed. */
  'bridge/cancel-exposed': { request: { callId: string }; answer: undefined };
  /**
   * The agent's call that this document's resumeTool callback answers is over (the person's Stop, its time limit):
   * the callback's signal aborts (lib/page-world/tool-continuations.ts).
   */
  'bridge/cancel-resume': { request: { token: string }; answer: undefined };
}

/** The answer to router/call-tool: the call's output, and the tab's tools after it. */
export interface HostCallAnswer {
  output: ToolOutput;
  snapshot: TabToolSnapshot;
}

/**
 * The runtime Port between Chrome's agent host (the offscreen document) and the background's router. The background
 * opens it (runtime.connect from the service worker) and the host takes it only from the service worker: a
 * runtime.onConnect listener in the background would hold open every Port a side panel opens to an agent host that
 * is gone, so the panel would never hear that no host took it (lib/background/create-document-ports.ts). On it, a
 * request line (lib/messaging/create-request-line.ts): the host's asks (RouterLine) and the router's pushes
 * (RouterPushLine).
 */
export const ROUTER_PORT_NAME = 'webmcp-agent-router';

/** A running call's parked state, as the router tells the host (an update of router/call-tool). */
export interface CallStateUpdate {
  state: 'awaiting-confirmation';
  /** What the person should click, in the background's own words. */
  prompt: string;
}

/**
 * Agent host → the background's tool router, on the router's line (ROUTER_PORT_NAME). A call's cancel is the line's
 * (the router's handler sees its signal abort, the page gets toolcancel); when the line closes (the service worker
 * stopped or restarted) every pending ask fails with its one error.
 */
export interface RouterLine {
  /** The tab's snapshot. The tab is watched from then on: its changes are pushed (host/tools-changed). */
  'router/get-tools': { request: { tabId: number }; answer: TabToolSnapshot };
  /** Runs one call (never an error answer: failures are `Error [code]` outputs); a wait for the person is an update. */
  'router/call-tool': {
    request: { tabId: number; call: ToolCall; expect?: ExpectedTool };
    answer: HostCallAnswer;
    update: CallStateUpdate;
  };
  /**
   * A notice sent every 20 s while an ask is pending (a form can wait minutes for the person): a message on the Port
   * keeps Chrome from stopping the idle service worker that holds the call (an open Port alone does not).
   */
  'router/keepalive': { request: object; answer: undefined };
  /** The host took the line: the router may push on it (what it held while it had none goes first). */
  'router/ready': { request: object; answer: undefined };
}

/** Background → agent host, on the router's line. */
export interface RouterPushLine {
  /** A watched tab's tools or page changed: the snapshot after the change. */
  'host/tools-changed': { request: { tabId: number; snapshot: TabToolSnapshot }; answer: undefined };
}

/** Agent host → background, on runtime.sendMessage (taken only from extension pages). */
export interface RouterChannel {
  /** Whether the browser has native WebMCP, as the host's document sees it (Chrome's page-world stub follows it). */
  'router/native-webmcp': { request: { native: boolean }; answer: undefined };
  /**
   * The host has no line and wants one (it started, or it asks with none): the message wakes the service worker,
   * which opens one. A closed line is not reopened otherwise, so that an idle service worker may stop.
   */
  'router/connect': { request: object; answer: undefined };
}

/** Content script → background messages. */
export type FrameToBackgroundMessage = ChannelMessage<FrameChannel>;
/** Background → frame messages. */
export type BackgroundToFrameMessage = ChannelMessage<ConnectorChannel>;
/** Background → agent host pushes (on the router's line). */
export type BackgroundToHostMessage = ChannelMessage<RouterPushLine>;

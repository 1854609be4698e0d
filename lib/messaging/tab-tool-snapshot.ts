/**
 * A tab's tools as the background's router keeps them and hands them to the agent host (router/get-tools,
 * host/tools-changed): a message shape, so every context reads it from here.
 */
import type { JSONSchema, PageContext, ToolDescriptor } from '../agent/types';

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
  /** Registered through an API generation native WebMCP no longer has (for the audit). */
  legacyApi?: LegacyApi;
}

/**
 * The 2025 API a tool came through, which Chromium's WebMCP no longer has: the `navigator.modelContext` alias (any
 * of its methods), or `provideContext` on `document.modelContext`. Known only where this extension's polyfill
 * registered the tool (lib/page-world/legacy-registrations.ts).
 */
export type LegacyApi = 'navigator.modelContext' | 'provideContext';

/** Whether an untrusted value names a legacy API this extension knows. */
export function isLegacyApi(value: unknown): value is LegacyApi {
  return value === 'navigator.modelContext' || value === 'provideContext';
}

/** Tools of a tab the agent does not get, and why (the panel's Tools view shows the note). */
export interface DroppedTools {
  count: number;
  /**
   * 'not-delegated': frames of other sites the page did not allow tools; 'tab-cap': over the per-tab caps;
   * 'too-large': a tool heavier than one tool may be (lib/background/page-limits.ts, MAX_TOOL_BYTES).
   */
  reason: 'not-delegated' | 'tab-cap' | 'too-large';
  /** The same in words for the person. */
  note: string;
}

/**
 * What the extension refused of a page because it asked too much (lib/background/page-limits.ts): more reports,
 * bytes, frames, messages or page loads than the limits allow. The note is the extension's words; the only page
 * words in it are its title, quoted and cut to 60 characters, shown as text.
 */
export interface PageLimitNotice {
  kind: PageLimitKind;
  note: string;
}

/** Which limit a page met. */
export type PageLimitKind = 'reports' | 'report-bytes' | 'report-size' | 'frames' | 'messages' | 'navigations';

/** A tab's tools (all frames, unique model-facing names) and its top page, for the system prompt. */
export interface TabToolSnapshot {
  tabId: number;
  tools: TabToolEntry[];
  page: PageContext;
  /** Tools left out of `tools`, when any were. */
  dropped?: DroppedTools[];
  /** What the extension refused of the page's work, when it refused anything (the panel says so). */
  limits?: PageLimitNotice[];
  /** Grows with every change of the tab (see the router): of two snapshots, the higher revision is the newer. */
  revision?: number;
  /**
   * The tab's top document went away with no navigation and no new document, and the browser says its page is not
   * loaded (a renderer that crashed: lib/background/is-crashed-tab.ts). Until a new top document starts, the tab
   * offers nothing and names no page.
   */
  crashed?: true;
}

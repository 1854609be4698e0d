/** Most characters of the page title a call's record keeps ({@link CallRecord.tab}). */
export const MAX_CALL_TITLE = 80;

/** One tool call in a tab's timeline: by the agent or by the person's hand. */
export interface CallRecord {
  /** The call's id (the host's, for a call run by hand). */
  id: string;
  /** When it started, in ms since the epoch. */
  at: number;
  /** 'client': a desktop agent, through the MCP bridge (lib/mcp-bridge). */
  by: 'agent' | 'person' | 'client';
  /** The desktop agent's name, as it gave it, for a call `by` a client. */
  client?: string;
  /** The model-facing name (in a task across tabs, the site-qualified name the model called). */
  tool: string;
  /**
   * The tab and the site the call ran on, for an agent's call in a task across tabs (docs/security.md, "Tasks
   * across tabs"); absent for a call in a conversation of one tab, which ran on the tab of its timeline. `title` is
   * the title of the page the call ran in, as it was when the call started (page text: one line, at most
   * {@link MAX_CALL_TITLE} characters; absent when the page had none): a card says where its call ran, then and
   * forever, whatever the tab shows later.
   */
  tab?: { tabId: number; site: string; title?: string };
  /** The panel's id for a call run by hand, to find it here. */
  requestId?: string;
  /** Where the tool lives, when the tab's snapshot knew it. */
  origin?: string;
  frameId?: number;
  /** The arguments, with the values at `secretPaths` masked (and redacted from the output): the timeline never holds them. */
  input: unknown;
  /** The input's secret paths under the tool's schema when it was called (lib/transcript/secret-paths-of.ts). */
  secretPaths?: string[][];
  /** A call waiting for the person's Allow has not started on the page yet. */
  state: 'awaiting-confirmation' | 'running' | 'done' | 'error' | 'cancelled';
  /** The output's text, cut to MAX_RECORD_OUTPUT (lib/call-log/call-timeline.ts) characters. */
  output?: string;
  /** The whole output was longer than what is kept here. */
  outputTruncated?: boolean;
  /** The `Error [code]` of a failed call. */
  errorCode?: string;
  /** How long the page took, from the moment the call reached it (a confirmation's wait is not counted). */
  durationMs?: number;
}

/**
 * The one interface the agent host uses to reach page tools, whatever context it runs in:
 * - Firefox: the host is the background page itself and uses the router directly (createToolRouter);
 * - Chrome: the host is the offscreen document and uses createRouterClient, which talks to the router in
 *   the service worker on a request line over a runtime Port the service worker opens (lib/messaging/router-messages.ts).
 */
import type { ToolCall, ToolOutput } from '../agent/types';
import type { ExpectedTool } from './router-messages';
import type { TabToolSnapshot } from './tab-tool-snapshot';

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
export interface RouterClient {
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

/**
 * The router's calls of each tab, one at a time and at most MAX_PENDING_CALLS_PER_TAB waiting or running: a page
 * whose tools never settle cannot make calls pile up without end (one past the cap is refused at once, in the
 * extension's words).
 */
import type { ToolCall, ToolOutput } from '../agent/types';
import { toolErrorOutput } from '../agent/tool-error-output';
import type { ToolCallOptions } from '../messaging/router-client';
import { MAX_PENDING_CALLS_PER_TAB } from './page-limits';

interface CallQueue {
  /** Runs the call after the tab's earlier ones; a call that throws ends as frame_gone. */
  callTool(tabId: number, call: ToolCall, options: ToolCallOptions): Promise<ToolOutput>;
  /** The tab closed: its queue and count go (calls already running end on their own). */
  forgetTab(tabId: number): void;
}

/** Creates the queue; `run` runs one call. */
export function createCallQueue(run: (tabId: number, call: ToolCall, options: ToolCallOptions) => Promise<ToolOutput>): CallQueue {
  const queues = new Map<number, Promise<unknown>>();
  /** Calls waiting or running in each tab. */
  const pending = new Map<number, number>();
  return {
    callTool(tabId, call, options) {
      const waiting = pending.get(tabId) ?? 0;
      if (waiting >= MAX_PENDING_CALLS_PER_TAB) return Promise.resolve(tooManyCalls(call.name));
      pending.set(tabId, waiting + 1);
      const previous = queues.get(tabId) ?? Promise.resolve();
      const result = previous
        .then(() =>
          run(tabId, call, options).catch((error) => toolErrorOutput('frame_gone', `The call failed in the extension: ${String(error)}`)),
        )
        .finally(() => {
          const left = (pending.get(tabId) ?? 1) - 1;
          if (left > 0) pending.set(tabId, left);
          else pending.delete(tabId);
        });
      queues.set(
        tabId,
        result.then(() => undefined),
      );
      return result;
    },
    forgetTab(tabId) {
      pending.delete(tabId);
      queues.delete(tabId);
    },
  };
}

/** One call too many for the tab (MAX_PENDING_CALLS_PER_TAB): refused at once, in the extension's words. */
function tooManyCalls(name: string): ToolOutput {
  return toolErrorOutput(
    'too_many_calls',
    `"${name}" was not run: this tab already has ${MAX_PENDING_CALLS_PER_TAB} tool calls waiting or running, the most the extension allows. Wait for them to end.`,
  );
}

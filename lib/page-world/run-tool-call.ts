/**
 * One call of a document's own tool, with native Chromium's timing to the task: when the tool starts, when
 * toolactivated and toolcancel fire, when the call settles or rejects on abort (the conformance suite checks each
 * against native). Whoever asked (executeTool, another same-origin document, another origin through the extension)
 * runs it here, in the tool's document.
 */
import { thrownMessage } from '../page-data/describe-thrown';
import type { ToolEventClasses } from './define-tool-events';
import type { CheckedTool } from './read-model-context-tool';
import { afterQueuedTasks, inAFreshTask } from './schedule-call-tasks';
import { serializeToolResult } from './serialize-tool-result';
import { createInvocation } from './tool-continuations';

/**
 * Runs `registered` with `args` in `win`'s document and resolves to its result as executeTool gives it, or rejects
 * as native does; `outer` is the caller's signal. toolactivated and toolcancel fire at `context`, that document's
 * modelContext, as instances of its realm's `events`.
 */
export function runToolCall(
  win: Window & typeof globalThis,
  context: EventTarget,
  events: ToolEventClasses,
  registered: CheckedTool,
  args: unknown,
  outer: AbortSignal | undefined,
): Promise<string | null> {
  // As native: a call whose signal is already aborted rejects with its reason, and the tool never runs.
  if (outer?.aborted) return Promise.reject(outer.reason);
  const name = registered.name;
  const controller = new AbortController();
  // Only the agent's call (the bridge's signal) can get a continuation token (tool-continuations.ts).
  const { invocation, finish } = createInvocation(win, outer);
  return new Promise((resolve, reject) => {
    let ended = false;
    const end = (settle: () => void) => {
      if (ended) return;
      ended = true;
      finish();
      outer?.removeEventListener('abort', onAbort);
      settle();
    };
    // As native (WPT webmcp/*/executeTool-abort): the call rejects at once with the caller's reason; in a later
    // task, once the tool has started (it still starts if it had not), its signal aborts with an AbortError, and
    // toolcancel follows once the microtasks that queued have run. Native's later task is a round trip through the
    // browser; the tasks of afterQueuedTasks keep a task the page queued right after abort() ahead of it, as native's does.
    const onAbort = () => {
      end(() => reject(outer?.reason));
      afterQueuedTasks(win, () => {
        controller.abort();
        queueMicrotask(() => context.dispatchEvent(new events.ToolCancelEvent('toolcancel', { toolName: name })));
      });
    };
    outer?.addEventListener('abort', onAbort, { once: true });
    // As native: the tool starts in a later task, after executeTool has returned its promise; a task of its own,
    // as native's is, so the timers the tool sets are not clamped for the caller's nesting (see inAFreshTask).
    inAFreshTask(win, () => {
      new Promise((started) => started(registered.execute(args, { signal: controller.signal, invocation })))
        .then(
          (value) => () => resolve(serializeToolResult(value)),
          (error) =>
            // The page may throw anything (a Proxy, an object without a prototype): describing it never throws,
            // or this handler would fail unseen and the call would never settle.
            () =>
              reject(new DOMException(`Tool was executed but the invocation failed: ${thrownMessage(error)}`, 'UnknownError')),
        )
        // As native, whose answer comes back through the browser: the call settles a few tasks after the tool did,
        // after the tasks the tool queued (a timer, a message) and those they queued in turn.
        .then((settle) =>
          afterQueuedTasks(win, () =>
            end(() => {
              try {
                settle();
              } catch (error) {
                reject(error);
              }
            }),
          ),
        );
      // As native: the tool starts first (a declarative form is filled, even submitted), and toolactivated follows
      // once the microtasks it queued have run; dispatched at this document's modelContext (not at the window).
      queueMicrotask(() => context.dispatchEvent(new events.ToolActivatedEvent('toolactivated', { toolName: name })));
    });
  });
}

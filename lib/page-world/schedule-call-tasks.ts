/**
 * The tasks a polyfilled tool call moves through, so its steps land in the tasks native's do. Native's steps run in
 * tasks that come from the browser; a page (and the conformance suite) can tell from the order of its own timers
 * and messages where each step ran.
 */

/**
 * Runs `then` in a task of its own: a message's task, which starts at timer nesting level 0. Native's steps run in
 * tasks that come from the browser, so a page that awaits calls in a loop never gets its timers clamped to 4 ms
 * (HTML's timer initialisation steps clamp a timer nested more than five deep); timers chained here would be.
 */
export function inAFreshTask(win: Window & typeof globalThis, then: () => void): void {
  const { port1, port2 } = new win.MessageChannel();
  port1.onmessage = () => {
    port1.close();
    then();
  };
  port2.postMessage(null);
}

/**
 * Runs `then` three tasks from now (a fresh task, then a timer it queues, then a timer that one queues): after the
 * timers and messages queued before it, and the timers those queued in turn.
 */
export function afterQueuedTasks(win: Window & typeof globalThis, then: () => void): void {
  inAFreshTask(win, () => win.setTimeout(() => win.setTimeout(then, 0), 0));
}

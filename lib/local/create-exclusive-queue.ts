/**
 * Runs tasks one at a time, in the order they were queued, whether the one before succeeded or failed. The
 * on-device engine queues generations and unloads this way: ORT sessions are not re-entrant, and unloading waits
 * for a generation.
 *
 * @returns `exclusive(task)`: runs `task` after everything queued before, and settles as it does.
 */
export function createExclusiveQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => {});
    return run;
  };
}

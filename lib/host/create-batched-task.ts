/** A task that runs once for every burst of changes. */
interface BatchedTask {
  /** Runs the task `delayMs` from now, unless a run is already due: then this change joins it. */
  schedule(): void;
  /** Drops the run that is due, if any (the caller runs the task itself now). */
  cancel(): void;
}

/**
 * Batches a task: however many changes come within `delayMs` of the first, the task runs once, after that delay, and
 * sees all of them. The tab session emits its snapshot and saves its conversation this way, so a run streaming
 * parts neither floods the panel nor writes storage for every part.
 *
 * @param delayMs How long the first change waits for others.
 * @param task What to do once the burst is over (it reads the state as it is then).
 */
export function createBatchedTask(delayMs: number, task: () => void): BatchedTask {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    schedule() {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        task();
      }, delayMs);
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

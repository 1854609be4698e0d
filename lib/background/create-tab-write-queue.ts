/**
 * State writes per tab that cannot starve other tabs. Each tab has its own queue, so a tab whose page floods reports
 * never makes another tab's write wait; and a tab's writes coalesce: while one is in flight, later ones collapse into
 * a single pending write, which reads the latest state when it runs. A flood of N reports costs at most one write in
 * flight and one pending, whatever N.
 */

interface TabWriteQueue {
  /**
   * Queues a write of the tab's state. `write` runs later and must read the latest state itself. Resolves once a
   * write that started after this call has finished (a failed write is swallowed: the next one writes again).
   */
  schedule(tabId: number, write: () => Promise<void>): Promise<void>;
  /** Drops the tab's pending write (the tab closed). */
  forget(tabId: number): void;
}

interface Pending {
  write: () => Promise<void>;
  done: Promise<void>;
  resolve: () => void;
}

/** Creates the per-tab, coalescing write queue. */
export function createTabWriteQueue(): TabWriteQueue {
  /** Tabs with a write in flight, and the one write waiting behind it (if any). */
  const queues = new Map<number, { pending?: Pending }>();

  const drain = async (tabId: number, queue: { pending?: Pending }) => {
    while (queue.pending) {
      const next = queue.pending;
      queue.pending = undefined;
      await next.write().catch(() => undefined);
      next.resolve();
    }
    queues.delete(tabId);
  };

  return {
    schedule(tabId, write) {
      const queue = queues.get(tabId);
      if (queue?.pending) {
        queue.pending.write = write;
        return queue.pending.done;
      }
      let resolve!: () => void;
      const done = new Promise<void>((r) => {
        resolve = r;
      });
      const pending = { write, done, resolve };
      if (queue) queue.pending = pending;
      else {
        const fresh = { pending };
        queues.set(tabId, fresh);
        void drain(tabId, fresh);
      }
      return done;
    },
    forget(tabId) {
      const queue = queues.get(tabId);
      queue?.pending?.resolve();
      if (queue) queue.pending = undefined;
    },
  };
}

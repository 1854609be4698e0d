/** A timer that fires after a quiet spell. */
interface IdleTimer {
  /** Starts the quiet spell again from now (a pending one is dropped). */
  restart(): void;
  /** Drops the pending spell: nothing fires until the next restart. */
  cancel(): void;
}

/**
 * Calls `onIdle` once `idleMs` have passed since the last restart, unless cancelled first. With `idleMs` 0 it never
 * fires. The on-device engine unloads its model this way after a while without use.
 *
 * @param idleMs The quiet spell; 0 turns the timer off.
 * @param onIdle Called once per spell that ran out.
 */
export function createIdleTimer(idleMs: number, onIdle: () => void): IdleTimer {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  return {
    restart() {
      cancel();
      if (idleMs > 0) {
        timer = setTimeout(() => {
          timer = undefined;
          onIdle();
        }, idleMs);
      }
    },
    cancel,
  };
}

import type { AgentStreamPart } from '../agent/types';

interface ReadAdapterRunOptions {
  /** The run's Stop. */
  signal: AbortSignal;
  /** How long an adapter may take to wind down after Stop before its parts are no longer read. */
  graceMs: number;
  /** Takes one part; returns false once the run has ended (the rest is not read). */
  onPart: (part: AgentStreamPart) => boolean;
}

/**
 * Reads an adapter's run part by part, until the adapter ends it, `onPart` says it has ended, or Stop was pressed
 * `graceMs` ago and the adapter still goes on: Stop must end the run even if an adapter ignores its signal. An adapter
 * left early is told to return (its answer is not awaited, and its failure to is ignored).
 *
 * @param parts What the adapter's `run` returned.
 * @returns Resolves once reading has stopped; rejects when the adapter throws.
 */
export async function readAdapterRun(parts: AsyncIterable<AgentStreamPart>, options: ReadAdapterRunOptions): Promise<void> {
  const iterator = parts[Symbol.asyncIterator]();
  const abandoned = new Promise<'abandoned'>((resolve) =>
    options.signal.addEventListener('abort', () => setTimeout(() => resolve('abandoned'), options.graceMs), { once: true }),
  );
  while (true) {
    const next = await Promise.race([iterator.next(), abandoned]);
    if (next === 'abandoned' || next.done) {
      if (next === 'abandoned') void iterator.return?.().catch(() => undefined);
      break;
    }
    if (!options.onPart(next.value)) {
      void iterator.return?.()?.catch(() => undefined);
      break;
    }
  }
}

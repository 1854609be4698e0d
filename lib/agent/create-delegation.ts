import { runSubAgent, type NestedPart, type RunAgentLoop } from './run-sub-agent';
import { subAgentFor } from './select-tools';
import type { AgentRunRequest, ToolCall, ToolOutput } from './types';

/**
 * Delegation for a loop that cannot yield from inside a tool call (the cloud adapter, where the AI SDK runs the
 * call): `callTool` runs delegate calls as nested runs (other calls go to `req.callTool` unchanged) and queues
 * their parts; `merge` interleaves the queued parts into the loop's own stream, each after the loop has seen
 * its delegate call's tool-call (so the panel has a card to nest them under) and before anything later.
 */
export interface Delegation {
  callTool: (call: ToolCall) => Promise<ToolOutput>;
  merge: <T>(source: AsyncIterable<T>, callIdOf: (part: T) => string | undefined) => AsyncGenerator<T | NestedPart>;
}

/** Creates the {@link Delegation} of run `req`, whose sub-agents run with `loop`. */
export function createDelegation(req: AgentRunRequest, loop: RunAgentLoop): Delegation {
  const queue: NestedPart[] = [];
  let wake: (() => void) | undefined;
  const seen = new Set<string>();

  const callTool = async (call: ToolCall): Promise<ToolOutput> => {
    if (!subAgentFor(req.agent, call.name, req.delegationDepth ?? 0)) return req.callTool(call);
    const run = runSubAgent(req, call, loop);
    for (;;) {
      const next = await run.next();
      if (next.done) return next.value;
      queue.push(next.value as NestedPart);
      wake?.();
    }
  };

  async function* merge<T>(source: AsyncIterable<T>, callIdOf: (part: T) => string | undefined): AsyncGenerator<T | NestedPart> {
    const iterator = source[Symbol.asyncIterator]();
    const ready = function* () {
      // In order, but a part waits until its delegate call has been seen: nothing after it overtakes it.
      while (queue.length > 0 && seen.has(queue[0].id)) yield queue.shift() as NestedPart;
    };
    let pending = iterator.next();
    try {
      for (;;) {
        yield* ready();
        const woken = new Promise<'woken'>((resolve) => {
          wake = () => resolve('woken');
        });
        const next = await Promise.race([pending, woken]);
        wake = undefined;
        if (next === 'woken') continue;
        yield* ready();
        if (next.done) break;
        const id = callIdOf(next.value);
        if (id !== undefined) seen.add(id);
        yield next.value;
        pending = iterator.next();
      }
      // Whatever is left belongs to calls the stream never announced: let it through rather than lose it.
      while (queue.length > 0) yield queue.shift() as NestedPart;
    } finally {
      wake = undefined;
      // Not awaited: a stream with a read in flight settles its return only after that read.
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
    }
  }

  return { callTool, merge };
}

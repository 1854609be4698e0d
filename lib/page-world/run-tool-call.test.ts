// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { defineToolEvents } from './define-tool-events';
import { runToolCall } from './run-tool-call';
import { NAVIGATED } from './serialize-tool-result';

const win = () => window as unknown as Window & typeof globalThis;

/** A modelContext stand-in that records the events fired at it, with their tool's name. */
function recordingContext(order: string[]) {
  const context = new EventTarget();
  for (const type of ['toolactivated', 'toolcancel']) {
    context.addEventListener(type, (event) => order.push(`${type} ${(event as Event & { toolName?: string }).toolName}`));
  }
  return context;
}

const tool = (execute: (input: unknown, client: { signal: AbortSignal }) => unknown) => ({
  name: 'search',
  title: '',
  description: 'Searches',
  execute,
});

describe('runToolCall', () => {
  it('starts the tool in a later task, fires toolactivated after it, and settles a few tasks after the tool did', async () => {
    const order: string[] = [];
    const context = recordingContext(order);
    const call = runToolCall(
      win(),
      context,
      defineToolEvents(win()),
      tool((input) => {
        order.push(`run ${JSON.stringify(input)}`);
        setTimeout(() => order.push('timer the tool queued'), 0);
        return { found: 2 };
      }),
      { q: 'shoes' },
      undefined,
    );
    order.push('returned');
    await expect(call).resolves.toBe('{"found":2}');
    expect(order).toEqual(['returned', 'run {"q":"shoes"}', 'toolactivated search', 'timer the tool queued']);
  });

  it('resolves null for a call that navigated, and rejects with UnknownError when the tool throws', async () => {
    const events = defineToolEvents(win());
    await expect(
      runToolCall(
        win(),
        new EventTarget(),
        events,
        tool(() => NAVIGATED),
        {},
        undefined,
      ),
    ).resolves.toBeNull();
    const thrown = runToolCall(
      win(),
      new EventTarget(),
      events,
      tool(() => {
        throw new Error('broken');
      }),
      {},
      undefined,
    );
    await expect(thrown).rejects.toMatchObject({ name: 'UnknownError', message: 'Tool was executed but the invocation failed: broken' });
  });

  it("never runs a tool whose call was aborted before, and on abort rejects at once, then aborts the tool's signal and fires toolcancel", async () => {
    const order: string[] = [];
    const context = recordingContext(order);
    const events = defineToolEvents(win());
    let ran = false;
    await expect(
      runToolCall(
        win(),
        context,
        events,
        tool(() => (ran = true)),
        {},
        AbortSignal.abort('early'),
      ),
    ).rejects.toBe('early');
    expect(ran).toBe(false);
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const call = runToolCall(
      win(),
      context,
      events,
      tool((_input, { signal }) => {
        toolSignal = signal;
        signal.addEventListener('abort', () => order.push('tool signal aborted'));
        return new Promise(() => {});
      }),
      {},
      controller.signal,
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort('stop');
    await expect(call).rejects.toBe('stop');
    expect(toolSignal?.aborted).toBe(false);
    // The tool's signal and toolcancel come in later tasks: wait for them, not for a time that a busy machine outlasts.
    await vi.waitFor(() => expect(order).toEqual(['toolactivated search', 'tool signal aborted', 'toolcancel search']));
  });
});

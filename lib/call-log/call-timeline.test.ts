import { describe, expect, it } from 'vitest';
import { createCallTimeline, MAX_RECORD_OUTPUT, MAX_TIMELINE } from './call-timeline';

const text = (t: string, isError = false) => ({ content: [{ type: 'text' as const, text: t }], ...(isError ? { isError } : {}) });

describe('createCallTimeline', () => {
  it('records who called, the input, the output, the duration and the error code', () => {
    let clock = 1_000;
    const timeline = createCallTimeline(() => clock);
    let changes = 0;
    timeline.subscribe(() => changes++);
    const call = timeline.start({
      id: 'c1',
      by: 'person',
      tool: 'add_to_cart',
      input: { id: 1 },
      origin: 'https://shop.example',
      frameId: 0,
    });
    expect(timeline.entries()[0]).toMatchObject({ id: 'c1', at: 1_000, by: 'person', state: 'running' });
    call.awaiting();
    expect(timeline.entries()[0].state).toBe('awaiting-confirmation');
    clock = 5_000;
    call.running();
    clock = 5_250;
    call.end(text('Added.'));
    expect(timeline.entries()[0]).toMatchObject({ at: 1_000, state: 'done', output: 'Added.', durationMs: 250 });
    timeline.start({ id: 'c2', by: 'agent', tool: 'pay', input: {} }).end(text('Error [tool_error]: declined', true));
    timeline.start({ id: 'c3', by: 'agent', tool: 'pay', input: {} }).end(text('Error [cancelled]: stopped', true));
    expect(
      timeline
        .entries()
        .slice(1)
        .map((r) => [r.state, r.errorCode]),
    ).toEqual([
      ['error', 'tool_error'],
      ['cancelled', 'cancelled'],
    ]);
    expect(changes).toBe(8);
  });

  it('keeps long outputs short and only the newest calls', () => {
    const timeline = createCallTimeline();
    timeline.start({ id: 'big', by: 'agent', tool: 't', input: {} }).end(text('x'.repeat(MAX_RECORD_OUTPUT + 10)));
    expect(timeline.entries()[0]).toMatchObject({ outputTruncated: true });
    expect(timeline.entries()[0].output).toHaveLength(MAX_RECORD_OUTPUT);
    for (let i = 0; i < MAX_TIMELINE + 5; i++) timeline.start({ id: `c${i}`, by: 'agent', tool: 't', input: {} });
    expect(timeline.entries()).toHaveLength(MAX_TIMELINE);
    expect(timeline.entries().at(-1)?.id).toBe(`c${MAX_TIMELINE + 4}`);
    timeline.clear();
    expect(timeline.entries()).toEqual([]);
  });

  it('masks a call’s secret paths before anything is stored, and redacts their values from the output', () => {
    const timeline = createCallTimeline(() => 1);
    const call = timeline.start({
      id: 'c1',
      by: 'agent',
      tool: 'pay',
      input: { amount: 5, card: { number: '4111111111111111', cvv: '7373' }, cards: [{ pin: '9999' }] },
      secretPaths: [
        ['card', 'cvv'],
        ['cards', '*', 'pin'],
      ],
    });
    expect(timeline.entries()[0].input).toEqual({
      amount: 5,
      card: { number: '4111111111111111', cvv: '[redacted]' },
      cards: [{ pin: '[redacted]' }],
    });
    call.awaiting();
    call.running();
    call.end(text(`${'x'.repeat(MAX_RECORD_OUTPUT - 2)}7373 and pin 9999`));
    const [entry] = timeline.entries();
    expect(entry).toMatchObject({
      state: 'done',
      secretPaths: [
        ['card', 'cvv'],
        ['cards', '*', 'pin'],
      ],
    });
    // Redacted before the cut: not even the secret's first characters are left at the end.
    expect(entry.output?.endsWith('xx[r')).toBe(true);
    expect(JSON.stringify(timeline.entries())).not.toMatch(/7373|9999/);
  });
});

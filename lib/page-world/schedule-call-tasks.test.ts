import { describe, expect, it } from 'vitest';
import { afterQueuedTasks, inAFreshTask } from './schedule-call-tasks';

const win = globalThis as unknown as Window & typeof globalThis;

describe('inAFreshTask', () => {
  it('runs in a later task, after the microtasks queued before it', async () => {
    const order: string[] = [];
    const done = new Promise<void>((resolve) =>
      inAFreshTask(win, () => {
        order.push('task');
        resolve();
      }),
    );
    queueMicrotask(() => order.push('microtask'));
    order.push('sync');
    await done;
    expect(order).toEqual(['sync', 'microtask', 'task']);
  });
});

describe('afterQueuedTasks', () => {
  it('runs after the timers queued before it and the timers those queued in turn', async () => {
    const order: string[] = [];
    setTimeout(() => {
      order.push('timer');
      setTimeout(() => order.push('nested timer'), 0);
    }, 0);
    await new Promise<void>((resolve) =>
      afterQueuedTasks(win, () => {
        order.push('then');
        resolve();
      }),
    );
    expect(order).toEqual(['timer', 'nested timer', 'then']);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBatchedTask } from './create-batched-task';

afterEach(() => {
  vi.useRealTimers();
});

describe('createBatchedTask', () => {
  it('runs once for a burst of changes, after the delay counted from the first', () => {
    vi.useFakeTimers();
    let runs = 0;
    const task = createBatchedTask(30, () => runs++);
    task.schedule();
    vi.advanceTimersByTime(20);
    task.schedule();
    task.schedule();
    expect(runs).toBe(0);
    vi.advanceTimersByTime(10);
    expect(runs).toBe(1);
    vi.advanceTimersByTime(100);
    expect(runs).toBe(1);
  });

  it('runs again for a change after the last run', () => {
    vi.useFakeTimers();
    let runs = 0;
    const task = createBatchedTask(30, () => runs++);
    task.schedule();
    vi.advanceTimersByTime(30);
    task.schedule();
    vi.advanceTimersByTime(29);
    expect(runs).toBe(1);
    vi.advanceTimersByTime(1);
    expect(runs).toBe(2);
  });

  it('drops the run that was due when cancelled, and schedules afresh after that', () => {
    vi.useFakeTimers();
    let runs = 0;
    const task = createBatchedTask(30, () => runs++);
    task.schedule();
    task.cancel();
    vi.advanceTimersByTime(100);
    expect(runs).toBe(0);
    task.cancel();
    task.schedule();
    vi.advanceTimersByTime(30);
    expect(runs).toBe(1);
  });

  it('lets the task see the state as it is when it runs', () => {
    vi.useFakeTimers();
    let value = 1;
    const seen: number[] = [];
    const task = createBatchedTask(5, () => seen.push(value));
    task.schedule();
    value = 2;
    task.schedule();
    value = 3;
    vi.advanceTimersByTime(5);
    expect(seen).toEqual([3]);
  });
});

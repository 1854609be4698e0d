import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSnapshotPush } from './create-snapshot-push';

describe('createSnapshotPush', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('pushes a tab once per window however often it changed, and again after the window', () => {
    const pushed: number[] = [];
    const pushes = createSnapshotPush((tabId) => pushed.push(tabId));
    for (let i = 0; i < 50; i++) pushes.schedule(1);
    expect(pushed).toEqual([]);
    vi.advanceTimersByTime(30);
    expect(pushed).toEqual([1]);
    pushes.schedule(1);
    vi.advanceTimersByTime(30);
    expect(pushed).toEqual([1, 1]);
  });

  it('a flooding tab does not hold back another tab’s push', () => {
    const pushed: number[] = [];
    const pushes = createSnapshotPush((tabId) => pushed.push(tabId));
    pushes.schedule(1);
    vi.advanceTimersByTime(20);
    pushes.schedule(2);
    pushes.schedule(1);
    vi.advanceTimersByTime(10);
    expect(pushed).toEqual([1]);
    vi.advanceTimersByTime(20);
    expect(pushed).toEqual([1, 2]);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIdleTimer } from './create-idle-timer';

afterEach(() => {
  vi.useRealTimers();
});

describe('createIdleTimer', () => {
  it('fires once the quiet spell after the last restart has passed', () => {
    vi.useFakeTimers();
    let fired = 0;
    const idle = createIdleTimer(100, () => fired++);
    idle.restart();
    vi.advanceTimersByTime(60);
    idle.restart();
    vi.advanceTimersByTime(60);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(40);
    expect(fired).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(fired).toBe(1);
  });

  it('never fires once cancelled, until restarted', () => {
    vi.useFakeTimers();
    let fired = 0;
    const idle = createIdleTimer(100, () => fired++);
    idle.restart();
    idle.cancel();
    vi.advanceTimersByTime(1_000);
    expect(fired).toBe(0);
    idle.restart();
    vi.advanceTimersByTime(100);
    expect(fired).toBe(1);
  });

  it('is off with a quiet spell of 0', () => {
    vi.useFakeTimers();
    let fired = 0;
    createIdleTimer(0, () => fired++).restart();
    vi.advanceTimersByTime(60 * 60_000);
    expect(fired).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { createExclusiveQueue } from './create-exclusive-queue';

/** A task that records when it starts and ends, and ends when told to. */
function task(name: string, log: string[]) {
  let finish: (ok: boolean) => void = () => {};
  const run = () =>
    new Promise<string>((resolve, reject) => {
      log.push(`${name} starts`);
      finish = (ok) => {
        log.push(`${name} ends`);
        if (ok) resolve(name);
        else reject(new Error(`${name} failed`));
      };
    });
  return { run, finish: (ok = true) => finish(ok) };
}
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createExclusiveQueue', () => {
  it('runs one task at a time, in the order they were queued', async () => {
    const exclusive = createExclusiveQueue();
    const log: string[] = [];
    const a = task('a', log);
    const b = task('b', log);
    const first = exclusive(a.run);
    const second = exclusive(b.run);
    await turn();
    expect(log).toEqual(['a starts']);
    a.finish();
    expect(await first).toBe('a');
    await turn();
    expect(log).toEqual(['a starts', 'a ends', 'b starts']);
    b.finish();
    expect(await second).toBe('b');
  });

  it('goes on after a task fails, and settles each task as it settled', async () => {
    const exclusive = createExclusiveQueue();
    const log: string[] = [];
    const a = task('a', log);
    const b = task('b', log);
    const first = exclusive(a.run);
    const second = exclusive(b.run);
    await turn();
    a.finish(false);
    await expect(first).rejects.toThrow('a failed');
    await turn();
    b.finish();
    expect(await second).toBe('b');
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends']);
  });
});

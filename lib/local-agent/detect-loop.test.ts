import { describe, expect, it } from 'vitest';
import { createLoopDetector, stableStringify } from './detect-loop';

describe('createLoopDetector', () => {
  it('flags the first repeat, stops at the second', () => {
    const loop = createLoopDetector();
    expect(loop.record('search', { q: 'a', n: 1 }, 'r')).toBe('new');
    expect(loop.record('search', { n: 1, q: 'a' }, 'r')).toBe('flag');
    expect(loop.record('search', { q: 'a', n: 1 }, 'r')).toBe('stop');
  });

  it('does not count a call whose answer changed, or other arguments', () => {
    const loop = createLoopDetector();
    loop.record('search', { q: 'a' }, 'r1');
    expect(loop.record('search', { q: 'a' }, 'r2')).toBe('new');
    expect(loop.record('search', { q: 'b' }, 'r1')).toBe('new');
  });

  it('remembers earlier calls without flagging them', () => {
    const loop = createLoopDetector();
    loop.remember('view', {}, 'x');
    expect(loop.record('view', {}, 'x')).toBe('flag');
  });

  it('stringifies stably', () => {
    expect(stableStringify({ b: [1, { d: 2, c: 1 }], a: null })).toBe('{"a":null,"b":[1,{"c":1,"d":2}]}');
  });
});

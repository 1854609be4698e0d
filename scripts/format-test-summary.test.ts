import { describe, expect, it } from 'vitest';
import { formatDuration, formatTestSummary, slowestTests } from './format-test-summary';
import type { TestTime } from './read-test-times';

const time = (title: string, durationMs: number, extra: Partial<TestTime> = {}): TestTime => ({
  suite: 'E2E',
  title,
  durationMs,
  status: 'passed',
  retry: 0,
  ...extra,
});

describe('formatDuration', () => {
  it('gives seconds under a minute and minutes with seconds from a minute on', () => {
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(59_940)).toBe('59.9 s');
    expect(formatDuration(60_000)).toBe('1 min 00 s');
    expect(formatDuration(754_400)).toBe('12 min 34 s');
  });
});

describe('slowestTests', () => {
  it('keeps the slowest attempts that ran, slowest first, skipped ones left out', () => {
    const times = [time('a', 10), time('b', 30), time('c', 99, { status: 'skipped' }), time('d', 20)];
    expect(slowestTests(times, 2).map((t) => t.title)).toEqual(['b', 'd']);
  });
});

describe('formatTestSummary', () => {
  it('lists the phases with their times, notes and outcomes, the total, then the slowest tests', () => {
    const text = formatTestSummary(
      [
        { name: 'typecheck', durationMs: 2500, outcome: 'passed', note: 'beside the builds' },
        { name: 'unit', durationMs: 65_000, outcome: 'failed' },
        { name: 'Chromium E2E', durationMs: 0, outcome: 'not run' },
      ],
      70_000,
      [time('[native] x.spec.ts › slow', 12_000, { retry: 1 }), time('lib/a.test.ts › quick', 5, { suite: 'unit', status: 'failed' })],
    );
    expect(text.split('\n')).toEqual([
      '',
      'Where the time went',
      '',
      '  typecheck           2.5 s  (beside the builds)',
      '  unit           1 min 05 s  (failed)',
      '  Chromium E2E            —  (not run)',
      '  total          1 min 10 s',
      '',
      'The 2 slowest tests',
      '',
      '       12.0 s  E2E      [native] x.spec.ts › slow  (retry 1)',
      '        0.0 s  unit     lib/a.test.ts › quick  (failed)',
    ]);
  });
});

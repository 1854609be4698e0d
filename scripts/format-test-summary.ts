/**
 * The summary `npm test` ends with (scripts/run-tests.ts): how long each phase took, and the slowest tests, so the
 * next person sees where the time goes.
 */
import type { TestTime } from './read-test-times';

/** One phase of the run and how it went. */
export interface PhaseTime {
  name: string;
  durationMs: number;
  /** passed, failed, or not run (an earlier phase failed). */
  outcome: 'passed' | 'failed' | 'not run';
  /** Which phases it ran beside, if any, e.g. "beside the builds". */
  note?: string;
}

/** Seconds with one decimal, or minutes and seconds from a minute on. */
export function formatDuration(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)
    .toString()
    .padStart(2, '0')} s`;
}

/** The `count` slowest test attempts that ran (skipped ones left out), slowest first. */
export function slowestTests(times: readonly TestTime[], count: number): TestTime[] {
  return times
    .filter((t) => t.status !== 'skipped' && t.status !== 'pending')
    .sort((a, b) => b.durationMs - a.durationMs)
    .slice(0, count);
}

/** The lines printed at the end of `npm test`: the phases with their times and the total, then the slowest tests. */
export function formatTestSummary(phases: readonly PhaseTime[], totalMs: number, times: readonly TestTime[], count = 10): string {
  const nameWidth = Math.max(...phases.map((p) => p.name.length), 'total'.length);
  const lines = ['', 'Where the time went', ''];
  for (const phase of phases) {
    const took = phase.outcome === 'not run' ? '—' : formatDuration(phase.durationMs);
    const notes = [phase.outcome === 'passed' ? '' : phase.outcome, phase.note ?? ''].filter(Boolean).join('; ');
    lines.push(`  ${phase.name.padEnd(nameWidth)}  ${took.padStart(11)}${notes ? `  (${notes})` : ''}`);
  }
  lines.push(`  ${'total'.padEnd(nameWidth)}  ${formatDuration(totalMs).padStart(11)}`);
  const slowest = slowestTests(times, count);
  if (slowest.length > 0) {
    lines.push('', `The ${slowest.length} slowest tests`, '');
    for (const t of slowest) {
      const marks = [t.retry > 0 ? `retry ${t.retry}` : '', t.status === 'passed' ? '' : t.status].filter(Boolean).join(', ');
      lines.push(`  ${formatDuration(t.durationMs).padStart(11)}  ${t.suite.padEnd(7)}  ${t.title}${marks ? `  (${marks})` : ''}`);
    }
  }
  return lines.join('\n');
}

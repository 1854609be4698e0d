import type { EvalCaseResult } from './run-eval-cases';

/** The exported report of an eval run. */
export interface EvalReport {
  format: 'webmcp-agent-eval-report';
  version: 1;
  startedAt: string;
  finishedAt: string;
  url: string;
  /** Which agent ran the cases. */
  agent: { kind: string; label: string; model?: string };
  summary: { total: number; run: number; passed: number; failed: number; errors: number; stopped: boolean; passRate: number };
  cases: EvalCaseResult[];
}

/** A run's results as the report the panel exports and the headless runner prints. */
export function toEvalReport(
  results: readonly EvalCaseResult[],
  options: { total: number; url: string; agent: EvalReport['agent']; startedAt: Date; finishedAt: Date; stopped: boolean },
): EvalReport {
  const passed = results.filter((r) => r.outcome === 'pass').length;
  return {
    format: 'webmcp-agent-eval-report',
    version: 1,
    startedAt: options.startedAt.toISOString(),
    finishedAt: options.finishedAt.toISOString(),
    url: options.url,
    agent: options.agent,
    summary: {
      total: options.total,
      run: results.length,
      passed,
      failed: results.filter((r) => r.outcome === 'fail').length,
      errors: results.filter((r) => r.outcome === 'error').length,
      stopped: options.stopped,
      // Of all cases in the file: a stopped run does not pass more easily.
      passRate: options.total === 0 ? 0 : passed / options.total,
    },
    cases: [...results],
  };
}

/** One line per case and a summary, for a terminal. */
export function formatEvalReport(report: EvalReport): string {
  const lines = report.cases.map((c) => {
    const mark = c.outcome === 'pass' ? 'PASS' : c.outcome === 'fail' ? 'FAIL' : 'ERROR';
    const detail =
      c.outcome === 'error'
        ? c.error
        : c.score?.rows
            .filter((r) => r.outcome === 'fail')
            .flatMap((r) => r.differences)
            .slice(0, 3)
            .join('; ');
    const counts = c.score ? ` (${c.score.passed}/${c.score.required} calls)` : '';
    return `${mark}  ${c.name}${counts}${detail ? ` — ${detail}` : ''}`;
  });
  const s = report.summary;
  lines.push(
    `${s.passed} passed, ${s.failed + s.errors} failed${s.errors > 0 ? ` (${s.errors} errors)` : ''}${s.stopped ? `, stopped after ${s.run} of ${s.total}` : ''}`,
  );
  return lines.join('\n');
}

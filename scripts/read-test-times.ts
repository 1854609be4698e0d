/**
 * How long each test took, read from the reports `npm test` leaves in test-reports/ (scripts/run-tests.ts):
 * Playwright's JSON reporter, Vitest's JSON reporter and the Firefox smoke's own list. Each reader takes the parsed
 * JSON and tolerates a missing or partial report (a phase that failed early writes none), so the summary still shows
 * what ran.
 */

/** One run of one test (a retried test has one per attempt). */
export interface TestTime {
  /** Which suite: 'E2E', 'unit', 'Firefox', 'Release'. */
  suite: string;
  /** Where it lives and what it is called, e.g. "[polyfill] sidepanel.spec.ts › Stop ends a slow reply". */
  title: string;
  durationMs: number;
  /** passed, failed, skipped, timedOut, interrupted. */
  status: string;
  /** 0 for the first attempt, 1 for the first retry. */
  retry: number;
}

interface PlaywrightSuite {
  title?: string;
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    tests: { projectName?: string; results: { duration: number; status: string; retry: number }[] }[];
  }[];
}

/** Every attempt of every test in a Playwright JSON report (`--reporter=json`). */
export function readPlaywrightTimes(report: unknown): TestTime[] {
  const times: TestTime[] = [];
  const walk = (suite: PlaywrightSuite, file: string, path: string[]) => {
    for (const child of suite.suites ?? []) walk(child, child.file ?? file, [...path, child.title ?? '']);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        for (const result of test.results) {
          const title = [file, ...path, spec.title].filter(Boolean).join(' › ');
          times.push({
            suite: 'E2E',
            title: `[${test.projectName ?? ''}] ${title}`,
            durationMs: result.duration,
            status: result.status,
            retry: result.retry,
          });
        }
      }
    }
  };
  for (const suite of (report as { suites?: PlaywrightSuite[] } | undefined)?.suites ?? []) walk(suite, suite.file ?? '', []);
  return times;
}

/** Every test in a Vitest JSON report (`--reporter=json`), its file relative to `root`. */
export function readVitestTimes(report: unknown, root: string): TestTime[] {
  const files = (report as { testResults?: { name: string; assertionResults?: unknown[] }[] } | undefined)?.testResults ?? [];
  return files.flatMap((file) =>
    ((file.assertionResults ?? []) as { fullName: string; duration?: number | null; status: string }[]).map((test) => ({
      suite: 'unit',
      title: `${file.name.startsWith(`${root}/`) ? file.name.slice(root.length + 1) : file.name} › ${test.fullName}`,
      durationMs: test.duration ?? 0,
      status: test.status,
      retry: 0,
    })),
  );
}

/** The Firefox smoke's checks (tests/firefox/smoke.ts), or the release test's (tests/release/check-release.ts, suite 'Release'), as they write them: [{ name, durationMs, passed }]. */
export function readFirefoxTimes(report: unknown, suite = 'Firefox'): TestTime[] {
  const checks = Array.isArray(report) ? (report as { name: string; durationMs: number; passed: boolean }[]) : [];
  return checks.map((check) => ({
    suite,
    title: check.name,
    durationMs: check.durationMs,
    status: check.passed ? 'passed' : 'failed',
    retry: 0,
  }));
}

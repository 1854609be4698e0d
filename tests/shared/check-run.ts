/**
 * The harness of the scripts that check a real browser or package step by step outside Playwright (the Firefox
 * smoke, tests/firefox/smoke.ts; the release test, tests/release/check-release.ts): each check is named, timed and
 * counted, a failed one says why and the run goes on, and the run ends with "N passed, N failed" and each check's
 * time in test-reports/<name>.json for the summary `npm test` prints (scripts/run-tests.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';

/** Runs one named check; resolves whether it passed (a failure is printed, never thrown). */
export type Check = (name: string, body: () => Promise<void>) => Promise<boolean>;

interface CheckRun {
  check: Check;
  /** Counts a failure that no check caught (the script itself crashed). */
  crashed(): void;
  /** Writes test-reports/<report>.json, prints the counts, and gives the exit code (0: nothing failed). */
  finish(report: string): number;
}

/** Starts counting checks. */
export function createCheckRun(): CheckRun {
  let passed = 0;
  let failed = 0;
  const checks: { name: string; durationMs: number; passed: boolean }[] = [];
  const check: Check = async (name, body) => {
    const started = Date.now();
    try {
      await body();
      passed++;
      checks.push({ name, durationMs: Date.now() - started, passed: true });
      console.log(`  ✓ ${name} (${Date.now() - started} ms)`);
      return true;
    } catch (error) {
      failed++;
      checks.push({ name, durationMs: Date.now() - started, passed: false });
      console.log(`  ✗ ${name} (${Date.now() - started} ms)\n      ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  };
  return {
    check,
    crashed: () => void failed++,
    finish(report) {
      mkdirSync('test-reports', { recursive: true });
      writeFileSync(`test-reports/${report}.json`, JSON.stringify(checks, null, 1));
      console.log(`${passed} passed, ${failed} failed`);
      return failed === 0 ? 0 : 1;
    },
  };
}

/** Throws `message` unless `condition` holds. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

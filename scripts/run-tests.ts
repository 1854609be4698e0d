/**
 * `npm test`: everything CI runs, in the order that fails fastest and with the phases that do not compete for the
 * two cores side by side, then how long each phase took and the ten slowest tests (docs/testing.md).
 *
 *   1. the type check and lint (a few seconds, mostly waiting) beside the builds (the desktop bridge's, whose launchers
 *      the E2E install, and the extension's two) and web-ext lint of the Firefox build;
 *   2. the unit tests (Vitest);
 *   3. the Chromium E2E (Playwright: polyfill, native, reference);
 *   4. the Firefox smoke;
 *   5. the release test: `npm run release` once, then each package installed and used as a person would
 *      (tests/release/check-release.ts).
 * A phase that fails stops the ones after it (their rows say "not run"); the summary is printed either way. Each
 * runner also writes a JSON report into test-reports/, which the summary reads.
 *
 *   tsx scripts/run-tests.ts                                 # everything (npm test)
 *   tsx scripts/run-tests.ts tests/e2e/options.spec.ts       # every phase, the E2E with only these Playwright arguments
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { formatTestSummary, type PhaseTime } from './format-test-summary';
import { readFirefoxTimes, readPlaywrightTimes, readVitestTimes, type TestTime } from './read-test-times';

const REPORTS = 'test-reports';

interface Phase {
  name: string;
  command: string;
  args: string[];
  /** Buffer the output and print it when the phase ends (phases that run beside another one). */
  quiet?: boolean;
  note?: string;
}

/** Runs one phase; resolves with its time and outcome. */
function runPhase(phase: Phase): Promise<PhaseTime> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(phase.command, phase.args, { stdio: phase.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    const done = (passed: boolean) => {
      if (phase.quiet) {
        process.stdout.write(`\n── ${phase.name} (${passed ? 'passed' : 'FAILED'}) ──\n${Buffer.concat(output).toString()}`);
      }
      resolve({ name: phase.name, durationMs: performance.now() - started, outcome: passed ? 'passed' : 'failed', note: phase.note });
    };
    child.on('error', (error) => {
      output.push(Buffer.from(String(error)));
      done(false);
    });
    child.on('close', (code) => done(code === 0));
  });
}

/** Runs phases one after another, stopping at the first that fails; the rest are listed as not run. */
async function runLane(phases: Phase[]): Promise<PhaseTime[]> {
  const times: PhaseTime[] = [];
  for (const phase of phases) {
    if (times.some((t) => t.outcome !== 'passed')) {
      times.push({ name: phase.name, durationMs: 0, outcome: 'not run', note: phase.note });
      continue;
    }
    times.push(await runPhase(phase));
  }
  return times;
}

const npm = (script: string, note?: string, quiet?: boolean): Phase => ({
  name: script,
  command: 'npm',
  args: ['run', '--silent', script],
  note,
  quiet,
});

/** Each stage's lanes run side by side; a stage starts when the one before it passed. */
const STAGES: Phase[][][] = [
  [
    [npm('typecheck', 'beside the builds', true), npm('lint', 'beside the builds', true)],
    [
      npm('build:bridge'),
      npm('build'),
      npm('build:firefox'),
      { name: 'web-ext lint', command: 'npx', args: ['web-ext', 'lint', '-s', '.output/firefox-mv3'], note: 'of the Firefox build' },
    ],
  ],
  [
    [
      {
        name: 'unit',
        command: 'npx',
        args: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${REPORTS}/unit.json`],
      },
    ],
  ],
  [[{ name: 'Chromium E2E', command: 'npx', args: ['playwright', 'test', ...process.argv.slice(2)] }]],
  [[{ name: 'Firefox smoke', command: 'npx', args: ['tsx', 'tests/firefox/smoke.ts'] }]],
  [
    [
      {
        name: 'Release',
        command: 'npx',
        args: ['tsx', 'tests/release/check-release.ts'],
        note: 'the store packages and the bridge tarball',
      },
    ],
  ],
];

function readJson(path: string): unknown {
  try {
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  const started = performance.now();
  const phases: PhaseTime[] = [];
  for (const stage of STAGES) {
    if (phases.some((p) => p.outcome !== 'passed')) {
      for (const phase of stage.flat()) phases.push({ name: phase.name, durationMs: 0, outcome: 'not run', note: phase.note });
      continue;
    }
    phases.push(...(await Promise.all(stage.map(runLane))).flat());
  }
  const times: TestTime[] = [
    ...readPlaywrightTimes(readJson(`${REPORTS}/e2e.json`)),
    ...readVitestTimes(readJson(`${REPORTS}/unit.json`), process.cwd()),
    ...readFirefoxTimes(readJson(`${REPORTS}/firefox.json`)),
    ...readFirefoxTimes(readJson(`${REPORTS}/release.json`), 'Release'),
  ];
  console.log(formatTestSummary(phases, performance.now() - started, times));
  return phases.every((p) => p.outcome === 'passed') ? 0 : 1;
}

process.exit(await main());

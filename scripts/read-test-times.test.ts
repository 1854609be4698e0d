import { describe, expect, it } from 'vitest';
import { readFirefoxTimes, readPlaywrightTimes, readVitestTimes } from './read-test-times';

describe('readPlaywrightTimes', () => {
  it('lists every attempt with its project, file, describe titles and retry', () => {
    const report = {
      suites: [
        {
          title: 'a.spec.ts',
          file: 'a.spec.ts',
          specs: [
            {
              title: 'works',
              tests: [
                {
                  projectName: 'polyfill',
                  results: [
                    { duration: 1200, status: 'failed', retry: 0 },
                    { duration: 900, status: 'passed', retry: 1 },
                  ],
                },
                { projectName: 'native', results: [{ duration: 800, status: 'passed', retry: 0 }] },
              ],
            },
          ],
          suites: [
            {
              title: 'group',
              specs: [{ title: 'inner', tests: [{ projectName: 'polyfill', results: [{ duration: 5, status: 'skipped', retry: 0 }] }] }],
            },
          ],
        },
      ],
    };
    expect(readPlaywrightTimes(report)).toEqual([
      { suite: 'E2E', title: '[polyfill] a.spec.ts › group › inner', durationMs: 5, status: 'skipped', retry: 0 },
      { suite: 'E2E', title: '[polyfill] a.spec.ts › works', durationMs: 1200, status: 'failed', retry: 0 },
      { suite: 'E2E', title: '[polyfill] a.spec.ts › works', durationMs: 900, status: 'passed', retry: 1 },
      { suite: 'E2E', title: '[native] a.spec.ts › works', durationMs: 800, status: 'passed', retry: 0 },
    ]);
  });

  it('gives nothing for a missing or empty report', () => {
    expect(readPlaywrightTimes(undefined)).toEqual([]);
    expect(readPlaywrightTimes({})).toEqual([]);
  });
});

describe('readVitestTimes', () => {
  it('lists every test with its file relative to the root', () => {
    const report = {
      testResults: [
        {
          name: '/repo/lib/a.test.ts',
          assertionResults: [
            { fullName: 'a does it', duration: 12.5, status: 'passed' },
            { fullName: 'a skips', duration: null, status: 'skipped' },
          ],
        },
      ],
    };
    expect(readVitestTimes(report, '/repo')).toEqual([
      { suite: 'unit', title: 'lib/a.test.ts › a does it', durationMs: 12.5, status: 'passed', retry: 0 },
      { suite: 'unit', title: 'lib/a.test.ts › a skips', durationMs: 0, status: 'skipped', retry: 0 },
    ]);
    expect(readVitestTimes(undefined, '/repo')).toEqual([]);
  });
});

describe('readFirefoxTimes', () => {
  it("lists the smoke's checks, failed ones marked", () => {
    expect(
      readFirefoxTimes([
        { name: 'installs', durationMs: 3000, passed: true },
        { name: 'renders', durationMs: 10, passed: false },
      ]),
    ).toEqual([
      { suite: 'Firefox', title: 'installs', durationMs: 3000, status: 'passed', retry: 0 },
      { suite: 'Firefox', title: 'renders', durationMs: 10, status: 'failed', retry: 0 },
    ]);
    expect(readFirefoxTimes({ not: 'a list' })).toEqual([]);
  });

  it("names the release test's checks as its own suite", () => {
    expect(readFirefoxTimes([{ name: 'the bridge tarball installs', durationMs: 9000, passed: true }], 'Release')).toEqual([
      { suite: 'Release', title: 'the bridge tarball installs', durationMs: 9000, status: 'passed', retry: 0 },
    ]);
  });
});

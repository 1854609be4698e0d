/**
 * Which tests a change touches, for the inner loop (`npm run test:changed`, scripts/test-changed.ts). Unit tests are
 * found by Vitest itself (`vitest related`: every test file that imports a changed file, however indirectly). E2E
 * specs exercise the built extension, so no import leads to them: they are found with the table below (which specs
 * cover which area of the code), plus what the specs name directly (a fixture page, a helper, a server, the demo).
 * The table errs on the wide side; CI still runs everything.
 */

/** Areas of the code, each with the E2E specs that exercise it (spec names without .spec.ts; `*` matches any text). */
export const E2E_AREAS: readonly { paths: readonly string[]; specs: readonly string[] }[] = [
  {
    // The page side: polyfill, stubs, the bridge's two halves, the cursor.
    paths: [
      'lib/webmcp/',
      'lib/page-world/',
      'lib/isolated-world/',
      'entrypoints/page-connector.ts',
      'entrypoints/page-stub.ts',
      'entrypoints/stub.ts',
      'entrypoints/native-stub.ts',
      'entrypoints/frame-connector.ts',
      'entrypoints/form-scan.ts',
    ],
    specs: ['connector-*', 'webmcp-conformance*', 'lazy-connector', 'trust-channel', 'trust-frames', 'trust-text', 'tool-continuations'],
  },
  {
    // The background: the tool router, the lazy connector's loader, stubs, the badge, the offscreen document's life.
    paths: ['lib/background/', 'entrypoints/background/', 'lib/messaging/'],
    specs: ['connector-host', 'connector-frames', 'foundation', 'lazy-connector', 'trust-host', 'trust-frames', 'sidepanel-restart'],
  },
  {
    // The agent host: sessions, confirmations, the agent loop, sub-agents.
    paths: ['lib/host/', 'lib/agent/', 'entrypoints/offscreen/'],
    specs: ['sidepanel', 'sidepanel-restart', 'subagents', 'trust-sites', 'trust-host', 'fresh-tools', 'inspector', 'debugging-tools'],
  },
  { paths: ['lib/cloud/'], specs: ['sidepanel', 'options'] },
  { paths: ['lib/local/', 'scripts/make-test-model.ts', 'tests/model/'], specs: ['local-*', 'sidepanel-local', 'fresh-tools'] },
  { paths: ['lib/mcp-bridge/', 'bridge/', 'components/sharing/'], specs: ['mcp-bridge', 'debugging-tools'] },
  { paths: ['lib/audit/', 'scripts/audit.ts'], specs: ['audit', 'audit-cli'] },
  { paths: ['lib/evals/', 'scripts/eval.ts'], specs: ['eval-cli', 'inspector', 'trust-exports'] },
  { paths: ['lib/call-log/', 'components/inspector/'], specs: ['inspector', 'trust-exports'] },
  { paths: ['lib/storage/'], specs: ['trust-storage', 'options', 'sidepanel-restart'] },
  { paths: ['lib/page-data/', 'lib/transcript/'], specs: ['trust-render', 'trust-text', 'trust-exports', 'sidepanel'] },
  {
    paths: ['components/chat/', 'components/panel/', 'entrypoints/sidepanel/'],
    specs: ['sidepanel', 'trust-render', 'subagents', 'audit'],
  },
  { paths: ['components/options/', 'entrypoints/options/'], specs: ['options'] },
  { paths: ['components/shared/', 'lib/shared/', 'lib/platform.ts'], specs: ['foundation', 'sidepanel', 'options'] },
  { paths: ['demo/'], specs: ['demo'] },
  // The E2E harness itself: its own check, and one spec that uses every fixture. Run everything before pushing.
  {
    paths: ['tests/e2e/fixtures.ts', 'tests/e2e/browser.ts', 'tests/e2e/reset-browser.ts', 'playwright.config.ts'],
    specs: ['browser-reset', 'foundation'],
  },
];

/** Files that make a change reach everything: the summary says to run `npm test`. */
const EVERYWHERE = ['package.json', 'package-lock.json', 'wxt.config.ts', 'tsconfig.json', 'vitest.config.ts', 'public/'];

/** What the repository holds, as the selection needs it. */
export interface RepoView {
  /** The text of every TypeScript file in tests/e2e/, by file name (`sidepanel.spec.ts`, `local-helpers.ts`). */
  e2eFiles: ReadonlyMap<string, string>;
}

/** What to run for a change. */
export interface ChangedTests {
  /** Files to hand to `vitest related` (sources and test files; Vitest finds the tests). */
  unitInputs: string[];
  /** E2E spec names to run, sorted. */
  specs: string[];
  /** Whether the extension must be built first (a change the built extension is made of). */
  build: boolean;
  /** Whether the Firefox smoke covers the change (its own files, or the Firefox build's settings). */
  firefox: boolean;
  /** Whether the release test covers the change (its own files, the release command, the store build's settings, the bridge package). */
  release: boolean;
  /** Changes that reach everything: run `npm test`. */
  everywhere: string[];
}

/** What the release test (tests/release/check-release.ts) covers beyond its own files: the release command, the store build's settings and test hooks, the bridge package. */
const RELEASE_PATHS = [
  'tests/release/',
  'scripts/release.ts',
  'scripts/release-files.ts',
  'scripts/take-store-screenshots.ts',
  'wxt.config.ts',
  'entrypoints/background/',
  'lib/background/install-e2e-test-hooks.ts',
  'bridge/',
];

/** `*` in a spec pattern matches any text. */
function matches(pattern: string, name: string): boolean {
  return new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`).test(name);
}

const isUnder = (file: string, path: string) => (path.endsWith('/') ? file.startsWith(path) : file === path);

/**
 * The specs whose text names `needle` (a fixture page, a helper module, a server), directly or through the helpers
 * they import (a helper that names it counts for every spec that imports the helper, however indirectly).
 */
function specsNaming(repo: RepoView, needle: string): string[] {
  const reached = new Set<string>();
  let needles = [needle];
  while (needles.length > 0) {
    const found = [...repo.e2eFiles].filter(([file, text]) => !reached.has(file) && needles.some((n) => text.includes(n)));
    for (const [file] of found) reached.add(file);
    needles = found.filter(([file]) => !file.endsWith('.spec.ts')).map(([file]) => `'./${file.replace(/\.ts$/, '')}'`);
  }
  return [...reached].filter((file) => file.endsWith('.spec.ts')).map((file) => file.replace(/\.spec\.ts$/, ''));
}

/**
 * The tests that cover `changed` (paths relative to the repository root, forward slashes). Documentation changes
 * select nothing.
 */
export function testsForChanges(changed: readonly string[], repo: RepoView): ChangedTests {
  const allSpecs = [...repo.e2eFiles.keys()].filter((file) => file.endsWith('.spec.ts')).map((file) => file.replace(/\.spec\.ts$/, ''));
  const specs = new Set<string>();
  const unitInputs: string[] = [];
  let build = false;
  let firefox = false;
  let release = false;
  const everywhere: string[] = [];
  const add = (names: Iterable<string>) => {
    for (const name of names) specs.add(name);
  };
  for (const file of changed) {
    if (/\.(md|txt)$/.test(file) || file.startsWith('docs/')) continue;
    const script = /\.(ts|tsx|js|mjs)$/.test(file);
    if (script && !['tests/e2e/', 'tests/firefox/', 'tests/release/'].some((dir) => file.startsWith(dir))) unitInputs.push(file);
    if (EVERYWHERE.some((path) => isUnder(file, path))) everywhere.push(file);
    const extensionSource = ['lib/', 'components/', 'entrypoints/', 'public/'].some((dir) => file.startsWith(dir));
    if ((extensionSource && !/\.test\.tsx?$/.test(file)) || file === 'wxt.config.ts') build = true;
    if (file.startsWith('tests/firefox/') || file === 'wxt.config.ts') firefox = true;
    if (RELEASE_PATHS.some((path) => isUnder(file, path)) && !/\.test\.ts$/.test(file)) release = true;
    for (const area of E2E_AREAS) {
      if (area.paths.some((path) => isUnder(file, path))) add(allSpecs.filter((spec) => area.specs.some((p) => matches(p, spec))));
    }
    const spec = /^tests\/e2e\/([^/]+)\.spec\.ts$/.exec(file);
    if (spec) add([spec[1]]);
    // A helper of the specs (not the harness, listed above): the specs that import it.
    const helper = /^tests\/e2e\/([^/]+)\.ts$/.exec(file);
    if (helper && !spec && !['fixtures', 'browser', 'reset-browser'].includes(helper[1])) add(specsNaming(repo, `'./${helper[1]}'`));
    const page = /^tests\/fixtures\/pages\/(.+)$/.exec(file);
    if (page) add(specsNaming(repo, page[1]));
    const shared = /^tests\/(servers|fixtures)\/([^/]+)\.ts$/.exec(file);
    if (shared) add(specsNaming(repo, `../${shared[1]}/${shared[2]}'`));
    if (file.startsWith('demo/')) add(specsNaming(repo, '/demo/'));
  }
  return { unitInputs: [...new Set(unitInputs)], specs: [...specs].sort(), build, firefox, release, everywhere };
}

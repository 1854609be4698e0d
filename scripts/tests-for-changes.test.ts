import { describe, expect, it } from 'vitest';
import { testsForChanges } from './tests-for-changes';

/** A tests/e2e folder: each spec or helper with the text the selection reads. */
const repo = {
  e2eFiles: new Map([
    ['fixtures.ts', "import { launchExtension } from './browser';"],
    ['browser.ts', ''],
    ['browser-reset.spec.ts', "import { test } from './fixtures';"],
    ['foundation.spec.ts', 'await page.goto(`SERVER/frames.html`);'],
    ['connector-helpers.ts', "import { test } from './fixtures';"],
    [
      'sidepanel-helpers.ts',
      "import { expectTools } from './connector-helpers';\nimport { startProviderServer } from '../servers/provider-server';",
    ],
    ['connector-host.spec.ts', "import { test } from './connector-helpers';\nawait page.goto(`SERVER/frames-tools.html`);"],
    ['connector-frames.spec.ts', "import { test } from './connector-helpers';"],
    ['sidepanel.spec.ts', "import { test } from './sidepanel-helpers';\nawait shop.goto(`SERVER/demo/`);"],
    ['options.spec.ts', "import { startProviderServer } from '../servers/provider-server';"],
    ['demo.spec.ts', 'await page.goto(`SERVER/demo/`);'],
    ['local-stop.spec.ts', ''],
    ['local-resume.spec.ts', ''],
    ['sidepanel-local.spec.ts', ''],
    ['fresh-tools.spec.ts', ''],
    ['webmcp-conformance.spec.ts', ''],
    ['webmcp-conformance-forms.spec.ts', ''],
    ['lazy-connector.spec.ts', ''],
    ['mcp-bridge.spec.ts', ''],
  ]),
};

describe('testsForChanges', () => {
  it('a lib module: its unit tests through vitest related, a build, and the specs of its area (patterns expanded)', () => {
    const selected = testsForChanges(['lib/local/create-local-adapter.ts'], repo);
    expect(selected).toEqual({
      unitInputs: ['lib/local/create-local-adapter.ts'],
      specs: ['fresh-tools', 'local-resume', 'local-stop', 'sidepanel-local'],
      build: true,
      firefox: false,
      release: false,
      everywhere: [],
    });
  });

  it('the page side reaches the bridge and conformance specs', () => {
    expect(testsForChanges(['lib/page-world/run-tool-call.ts'], repo).specs).toEqual([
      'connector-frames',
      'connector-host',
      'lazy-connector',
      'webmcp-conformance',
      'webmcp-conformance-forms',
    ]);
  });

  it('a changed unit test runs alone and needs no build', () => {
    expect(testsForChanges(['lib/local/create-local-adapter.test.ts'], repo)).toMatchObject({
      unitInputs: ['lib/local/create-local-adapter.test.ts'],
      build: false,
    });
  });

  it('a spec runs itself; a helper runs the specs that import it, also through another helper', () => {
    expect(testsForChanges(['tests/e2e/demo.spec.ts'], repo).specs).toEqual(['demo']);
    expect(testsForChanges(['tests/e2e/connector-helpers.ts'], repo).specs).toEqual(['connector-frames', 'connector-host', 'sidepanel']);
  });

  it('a fixture page, a server and the demo reach the specs that name them', () => {
    expect(testsForChanges(['tests/fixtures/pages/frames-tools.html'], repo).specs).toEqual(['connector-host']);
    expect(testsForChanges(['tests/servers/provider-server.ts'], repo).specs).toEqual(['options', 'sidepanel']);
    expect(testsForChanges(['demo/cart.js'], repo).specs).toEqual(['demo', 'sidepanel']);
  });

  it('the E2E harness runs its own check and one spec; the Firefox smoke runs for its own files', () => {
    expect(testsForChanges(['tests/e2e/fixtures.ts'], repo)).toMatchObject({ specs: ['browser-reset', 'foundation'], unitInputs: [] });
    expect(testsForChanges(['tests/firefox/smoke.ts'], repo)).toMatchObject({ specs: [], firefox: true, unitInputs: [] });
  });

  it('documentation selects nothing; the package manifest reaches everything', () => {
    expect(testsForChanges(['docs/testing.md', 'README.md'], repo)).toEqual({
      unitInputs: [],
      specs: [],
      build: false,
      firefox: false,
      release: false,
      everywhere: [],
    });
    expect(testsForChanges(['package.json'], repo).everywhere).toEqual(['package.json']);
  });

  it('the release test runs for its own files, the release command, the store build and the bridge package', () => {
    expect(testsForChanges(['tests/release/check-release.ts'], repo)).toMatchObject({ release: true, unitInputs: [], specs: [] });
    for (const file of [
      'scripts/take-store-screenshots.ts',
      'wxt.config.ts',
      'entrypoints/background/index.ts',
      'lib/background/install-e2e-test-hooks.ts',
      'bridge/src/install.ts',
    ]) {
      expect(testsForChanges([file], repo).release).toBe(true);
    }
    expect(testsForChanges(['bridge/src/install.test.ts', 'lib/local/create-local-adapter.ts'], repo).release).toBe(false);
  });
});

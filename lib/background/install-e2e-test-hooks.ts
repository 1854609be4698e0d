/**
 * The end-to-end tests' hooks on the background's global (tests/e2e/browser.ts, reset-browser.ts, connector-helpers.ts,
 * the benches): what the tests wait for before they open pages, and the router they drive as the agent host does.
 * Installed only outside the store build (`--mode store`, scripts/release.ts): entrypoints/background calls this
 * under `import.meta.env.MODE !== 'store'`, so the bundler drops it there, and tests/release/check-release.ts
 * searches the store packages for these names.
 */
import type { ToolRouter } from './create-tool-router';

/** The hooks, by the names the tests read. */
interface E2eTestHooks {
  /** Settles once the page-world stub stored from the last report is registered (set-up-stub-sync.ts). */
  pageStubReady: Promise<unknown>;
  /** Settles once this worker's stubs are right (on a first launch, after the agent host's report). */
  stubsSettled: Promise<unknown>;
  /** The router, which the tests ask for snapshots and calls as the agent host does. */
  testToolRouter: ToolRouter;
  /** Chrome: settles once the last start of the offscreen agent host has (for the tests' reset). */
  hostStarted?: () => Promise<unknown>;
}

/** Every hook's name: what the release check looks for in the store packages. */
export const E2E_TEST_HOOK_NAMES = [
  'testToolRouter',
  'stubsSettled',
  'pageStubReady',
  'hostStarted',
] as const satisfies readonly (keyof E2eTestHooks)[];

/** Puts the hooks on `global` (the background's globalThis); one that is undefined (Firefox's hostStarted) is left off. */
export function installE2eTestHooks(global: object, hooks: E2eTestHooks): void {
  Object.assign(global, Object.fromEntries(Object.entries(hooks).filter(([, value]) => value !== undefined)));
}

import { describe, expect, it } from 'vitest';
import { createToolRouter } from './create-tool-router';
import { setup } from '../testing/tool-router-fixtures';
import { E2E_TEST_HOOK_NAMES, installE2eTestHooks } from './install-e2e-test-hooks';

describe('installE2eTestHooks', () => {
  it('puts every hook on the global by the name the release check looks for', () => {
    const global = {};
    const testToolRouter = createToolRouter(setup().ports);
    const hostStarted = async () => undefined;
    installE2eTestHooks(global, { pageStubReady: Promise.resolve(), stubsSettled: Promise.resolve(), testToolRouter, hostStarted });
    expect(Object.keys(global).sort()).toEqual([...E2E_TEST_HOOK_NAMES].sort());
    expect(global).toMatchObject({ testToolRouter, hostStarted });
  });

  it('leaves off a hook this browser has none of (Firefox: no offscreen host to wait for)', () => {
    const global = {};
    installE2eTestHooks(global, {
      pageStubReady: Promise.resolve(),
      stubsSettled: Promise.resolve(),
      testToolRouter: createToolRouter(setup().ports),
    });
    expect('hostStarted' in global).toBe(false);
  });
});

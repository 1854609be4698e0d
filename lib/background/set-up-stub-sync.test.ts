import { describe, expect, it } from 'vitest';
import { createMemoryScriptRegistry } from '../testing/memory-script-registry';
import { NATIVE_STUB, NATIVE_WEBMCP_KEY, PAGE_STUB } from './create-stub-sync';
import { setUpStubSync } from './set-up-stub-sync';

/** chrome.storage.local cannot run in Node: a map with its get/set. */
function storageLocal(initial: Record<string, unknown> = {}) {
  const items = { ...initial };
  return {
    items,
    get: async (key: string) => (key in items ? { [key]: items[key] } : {}),
    set: async (next: Record<string, unknown>) => void Object.assign(items, next),
  };
}

const ids = (registry: ReturnType<typeof createMemoryScriptRegistry>) => registry.scripts.map((script) => script.id);
/** Whether a promise has settled by the time the queued work has run. */
const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 20; i++) await Promise.resolve();
  return done;
};

describe('setUpStubSync', () => {
  it('at start registers the stub stored from the last report, and then counts as settled', async () => {
    const scripting = createMemoryScriptRegistry();
    const stubs = setUpStubSync({ scripting, storage: { local: storageLocal({ [NATIVE_WEBMCP_KEY]: true }) } }, { firefox: false });
    await stubs.ready;
    expect(ids(scripting)).toEqual([NATIVE_STUB.id]);
    await stubs.settled;
  });

  it('on a first launch (nothing stored) settles only once the agent host has reported, which swaps the stubs', async () => {
    const scripting = createMemoryScriptRegistry();
    const local = storageLocal();
    const stubs = setUpStubSync({ scripting, storage: { local } }, { firefox: false });
    await stubs.ready;
    expect(ids(scripting)).toEqual([PAGE_STUB.id]);
    expect(await settled(stubs.settled)).toBe(false);
    await stubs.nativeReported(true);
    await stubs.settled;
    expect(ids(scripting)).toEqual([NATIVE_STUB.id]);
    expect(local.items).toEqual({ [NATIVE_WEBMCP_KEY]: true });
  });

  it('a storage that fails still leaves the page-world stub in and the report settling', async () => {
    const scripting = createMemoryScriptRegistry();
    const broken = { get: async () => Promise.reject(new Error('gone')), set: async () => Promise.reject(new Error('gone')) };
    const stubs = setUpStubSync({ scripting, storage: { local: broken } }, { firefox: false });
    await stubs.ready;
    expect(ids(scripting)).toEqual([PAGE_STUB.id]);
    await stubs.nativeReported(false);
    await stubs.settled;
  });

  it('on Firefox (stubs in the manifest) registers nothing and is settled at once', async () => {
    const scripting = createMemoryScriptRegistry();
    const stubs = setUpStubSync({ scripting, storage: { local: storageLocal() } }, { firefox: true });
    await Promise.all([stubs.ready, stubs.settled, stubs.nativeReported(true)]);
    expect(scripting.scripts).toEqual([]);
  });
});

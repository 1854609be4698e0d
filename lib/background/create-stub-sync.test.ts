import { describe, expect, it } from 'vitest';
import { createMemoryScriptRegistry } from '../testing/memory-script-registry';
import { createStubSync, NATIVE_STUB, PAGE_STUB } from './create-stub-sync';

const ids = (registry: ReturnType<typeof createMemoryScriptRegistry>) => registry.scripts.map((script) => script.id);

describe('createStubSync', () => {
  it('without native WebMCP registers the page-world stub in every frame at document_start, for good', async () => {
    const registry = createMemoryScriptRegistry();
    await createStubSync(registry)(false);
    expect(registry.scripts).toEqual([
      {
        id: PAGE_STUB.id,
        js: ['page-stub.js'],
        world: 'MAIN',
        matches: ['<all_urls>'],
        allFrames: true,
        matchOriginAsFallback: true,
        runAt: 'document_start',
        persistAcrossSessions: true,
      },
    ]);
  });

  it('with native WebMCP puts nothing in the page world: the isolated watcher replaces the page-world stub', async () => {
    const registry = createMemoryScriptRegistry();
    const sync = createStubSync(registry);
    await sync(false);
    await sync(true);
    expect(ids(registry)).toEqual([NATIVE_STUB.id]);
    expect(registry.scripts[0]).toMatchObject({ js: ['native-stub.js'], world: 'ISOLATED', runAt: 'document_start' });
    expect(registry.scripts.some((script) => script.world === 'MAIN')).toBe(false);
    await sync(false);
    expect(ids(registry)).toEqual([PAGE_STUB.id]);
  });

  it('a switch never leaves a moment with no stub: a frame that starts then gets both, not neither', async () => {
    const registry = createMemoryScriptRegistry();
    const seen: unknown[][] = [];
    const watched = {
      getRegisteredContentScripts: registry.getRegisteredContentScripts,
      async registerContentScripts(scripts: Record<string, unknown>[]) {
        await registry.registerContentScripts(scripts);
        seen.push(ids(registry));
      },
      async unregisterContentScripts(filter: { ids: string[] }) {
        await registry.unregisterContentScripts(filter);
        seen.push(ids(registry));
      },
    };
    const sync = createStubSync(watched);
    await sync(false);
    await sync(true);
    await sync(false);
    expect(seen).toEqual([
      [PAGE_STUB.id],
      [PAGE_STUB.id, NATIVE_STUB.id],
      [NATIVE_STUB.id],
      [NATIVE_STUB.id, PAGE_STUB.id],
      [PAGE_STUB.id],
    ]);
  });

  it('asked again, keeps what is registered (a worker restart finds its registrations from before)', async () => {
    const registry = createMemoryScriptRegistry();
    await createStubSync(registry)(false);
    await createStubSync(registry)(false);
    await createStubSync(registry)(true);
    await createStubSync(registry)(true);
    expect(ids(registry)).toEqual([NATIVE_STUB.id]);
  });

  it('runs calls one after another, so the last report wins even when they overlap', async () => {
    const registry = createMemoryScriptRegistry();
    const sync = createStubSync(registry);
    await Promise.all([sync(false), sync(true), sync(false), sync(true)]);
    expect(ids(registry)).toEqual([NATIVE_STUB.id]);
  });

  it('a failed registration fails its own call only; the next call still syncs', async () => {
    const registry = createMemoryScriptRegistry();
    const register = registry.registerContentScripts;
    registry.registerContentScripts = async () => {
      throw new Error('Script registration failed');
    };
    const sync = createStubSync(registry);
    await expect(sync(false)).rejects.toThrow('Script registration failed');
    registry.registerContentScripts = register;
    await sync(false);
    expect(ids(registry)).toEqual([PAGE_STUB.id]);
  });
});

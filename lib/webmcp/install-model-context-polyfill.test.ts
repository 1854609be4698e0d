// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { HOSTILE_THROWN } from '../../tests/fixtures/hostile-thrown';
import { installLegacyShim } from './install-legacy-shim';
import { installModelContextPolyfill, PolyfillModelContext } from './install-model-context-polyfill';

const win = () => window as unknown as Window & typeof globalThis;
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('PolyfillModelContext', () => {
  it('registers, lists (sorted, JSON copies), unregisters on abort and fires toolchange', async () => {
    const mc = new PolyfillModelContext(win());
    let changes = 0;
    mc.ontoolchange = () => changes++;
    const controller = new AbortController();
    await mc.registerTool(
      { name: 'b.two', description: 'B', inputSchema: { type: 'object' }, execute: () => 1 },
      { signal: controller.signal },
    );
    await mc.registerTool({ name: 'a', title: 'A', description: 'A', annotations: { readOnlyHint: 1 }, execute: () => 2 });
    await tick();
    const tools = await mc.getTools();
    expect(tools.map((t) => [t.name, t.title, t.inputSchema, t.annotations])).toEqual([
      ['a', 'A', undefined, { readOnlyHint: true }],
      ['b.two', '', { type: 'object' }, undefined],
    ]);
    controller.abort();
    await tick();
    expect((await mc.getTools()).map((t) => t.name)).toEqual(['a']);
    expect(changes).toBeGreaterThanOrEqual(2);
  });

  it('validates like Chromium: bad names, duplicates, missing execute, cyclic schemas', async () => {
    const mc = new PolyfillModelContext(win());
    await expect(mc.registerTool({ name: 'bad name', description: 'd', execute: () => 1 })).rejects.toThrow('Invalid tool name');
    await mc.registerTool({ name: 'x', description: 'd', execute: () => 1 });
    await expect(mc.registerTool({ name: 'x', description: 'd', execute: () => 1 })).rejects.toThrow('Tool already registered: x');
    await expect(mc.registerTool({ name: 'y', description: 'd' })).rejects.toThrow('"execute" must be a function');
    const cyclic: Record<string, unknown> = {};
    cyclic.c = cyclic;
    await expect(mc.registerTool({ name: 'z', description: 'd', inputSchema: cyclic, execute: () => 1 })).rejects.toThrow();
  });

  it('executes with an object (or JSON text) input and serialises results like Chromium', async () => {
    const mc = new PolyfillModelContext(win());
    await mc.registerTool({ name: 'echo', description: 'd', execute: (i: unknown) => i });
    await mc.registerTool({ name: 'text', description: 'd', execute: () => 'plain' });
    await mc.registerTool({ name: 'none', description: 'd', execute: () => undefined });
    await mc.registerTool({ name: 'boom', description: 'd', execute: () => Promise.reject(new Error('nope')) });
    expect(await mc.executeTool({ name: 'echo' }, { a: 1 })).toBe('{"a":1}');
    expect(await mc.executeTool({ name: 'echo' }, '{"b":2}')).toBe('{"b":2}');
    expect(await mc.executeTool({ name: 'text' }, {})).toBe('plain');
    expect(await mc.executeTool({ name: 'none' }, {})).toBe('undefined');
    await expect(mc.executeTool({ name: 'echo' }, [1])).rejects.toThrow('invalid input object');
    await expect(mc.executeTool({ name: 'boom' }, {})).rejects.toThrow('Tool was executed but the invocation failed: nope');
    await expect(mc.executeTool({ name: 'missing' }, {})).rejects.toThrow('Tool not found: missing');
  });

  it.each(HOSTILE_THROWN)('a tool that throws %s fails the call at once (it never hangs)', async (_label, make) => {
    const mc = new PolyfillModelContext(win());
    await mc.registerTool({
      name: 'throws',
      description: 'd',
      execute: () => {
        throw make();
      },
    });
    await mc.registerTool({ name: 'rejects', description: 'd', execute: () => Promise.reject(make()) });
    await expect(mc.executeTool({ name: 'throws' }, {})).rejects.toThrow('Tool was executed but the invocation failed');
    await expect(mc.executeTool({ name: 'rejects' }, {})).rejects.toThrow('Tool was executed but the invocation failed');
  });

  it('a result that cannot be read (a hostile Proxy) still settles the call, as a failure', async () => {
    const mc = new PolyfillModelContext(win());
    const [, proxy] = HOSTILE_THROWN.find(([label]) => label.startsWith('a Proxy'))!;
    await mc.registerTool({ name: 'odd', description: 'd', execute: () => proxy() });
    // Resolving with it reads its `then`, which throws: that is the tool failing, described like any throw.
    await expect(mc.executeTool({ name: 'odd' }, {})).rejects.toThrow('Tool was executed but the invocation failed: trap');
  });

  it('aborting a call rejects it, aborts the tool signal and fires toolcancel', async () => {
    const mc = new PolyfillModelContext(win());
    let toolSignal: AbortSignal | undefined;
    await mc.registerTool({
      name: 'hang',
      description: 'd',
      execute: (_: unknown, client: { signal: AbortSignal }) => {
        toolSignal = client.signal;
        return new Promise(() => {});
      },
    });
    const cancelled: string[] = [];
    mc.addEventListener('toolcancel', (e) => cancelled.push((e as Event & { toolName: string }).toolName));
    const controller = new AbortController();
    const call = mc.executeTool({ name: 'hang' }, {}, { signal: controller.signal });
    await tick();
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(call).rejects.toThrow('stop');
    expect(toolSignal?.aborted).toBe(true);
    expect(cancelled).toEqual(['hang']);
  });
});

describe('installModelContextPolyfill + installLegacyShim', () => {
  it('installs document.modelContext, the navigator alias and the older API generations', async () => {
    const mc = installModelContextPolyfill(win())!;
    expect(mc).toBeInstanceOf(PolyfillModelContext);
    expect((document as any).modelContext).toBe(mc);
    expect(installModelContextPolyfill(win())).toBeUndefined();
    installLegacyShim(win(), mc as any);
    const legacy = (navigator as any).modelContext;
    expect(legacy).toBe(mc);

    await legacy.provideContext({
      tools: [
        { name: 'p1', description: 'd', execute: () => 1 },
        { name: 'p2', description: 'd', execute: () => 2 },
      ],
    });
    const registration = legacy.registerTool({ name: 'r', description: 'd', execute: () => 3 });
    expect(typeof registration.unregister).toBe('function');
    await registration;
    expect((await mc.getTools()).map((t) => t.name)).toEqual(['p1', 'p2', 'r']);
    registration.unregister();
    legacy.unregisterTool('p1');
    await tick();
    expect((await mc.getTools()).map((t) => t.name)).toEqual(['p2']);
    await legacy.provideContext({ tools: [{ name: 'p3', description: 'd', execute: () => 4 }] });
    expect((await mc.getTools()).map((t) => t.name)).toEqual(['p3']);
    await legacy.registerTool({ name: 'later', description: 'd', execute: () => 5 });
    legacy.clearContext();
    await tick();
    expect(await mc.getTools()).toEqual([]);
  });
});

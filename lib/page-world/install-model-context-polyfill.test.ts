// @vitest-environment happy-dom
import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { HOSTILE_THROWN } from '../../tests/fixtures/hostile-thrown';
import { installLegacyShim } from './install-legacy-shim';
import { installModelContextPolyfill, PolyfillModelContext, settleToolsPolicy } from './install-model-context-polyfill';
import { legacyRegistrations } from './legacy-registrations';

const win = () => window as unknown as Window & typeof globalThis;
const tick = () => new Promise((r) => setTimeout(r, 5));
/** The tool as getTools() lists it: what executeTool takes, as natively. */
const toolOf = async (mc: PolyfillModelContext, name: string) => (await mc.getTools()).find((t) => t.name === name) ?? { name };

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
      ['a', 'A', undefined, { consequentialHint: false, debugging: false, readOnlyHint: true, untrustedContentHint: false }],
      ['b.two', '', { type: 'object' }, undefined],
    ]);
    // A dictionary, as native's: its keys in code-point order.
    expect(Object.keys(tools[0])).toEqual(['annotations', 'description', 'name', 'origin', 'title', 'window']);
    controller.abort();
    await tick();
    expect((await mc.getTools()).map((t) => t.name)).toEqual(['a']);
    expect(changes).toBeGreaterThanOrEqual(2);
  });

  it('refuses an exposedTo or fromOrigins origin that is not potentially trustworthy with SecurityError, after the tool’s checks', async () => {
    const mc = new PolyfillModelContext(win());
    const tool = { name: 'exposed', description: 'd', execute: () => 1 };
    await expect(mc.registerTool(tool, { exposedTo: ['http://a.test'] })).rejects.toMatchObject({
      name: 'SecurityError',
      message: 'Only secure origins are allowed in the exposedTo list.',
    });
    await expect(mc.registerTool({ ...tool, name: '' }, { exposedTo: ['http://a.test'] })).rejects.toMatchObject({
      name: 'InvalidStateError',
    });
    await expect(mc.registerTool(tool, { exposedTo: 'https://a.test' })).rejects.toBeInstanceOf(TypeError);
    await mc.registerTool(tool, { exposedTo: ['https://a.test', 'http://localhost:1'] });
    await expect(mc.getTools({ fromOrigins: ['not a url'] })).rejects.toMatchObject({
      name: 'SecurityError',
      message: 'Only secure origins are allowed in the fromOrigins list.',
    });
    await expect((mc.getTools as (options: unknown) => Promise<unknown>)(5)).rejects.toBeInstanceOf(TypeError);
    expect((await mc.getTools({ fromOrigins: ['https://a.test'] })).map((t) => t.name)).toEqual(['exposed']);
    expect(mc.getTools.length).toBe(0);
  });

  it('keeps an outputSchema as Chrome 159 does: a JSON copy listed in code-point order, a cyclic one refused', async () => {
    const mc = new PolyfillModelContext(win());
    const outputSchema = { type: 'object', properties: { total: { type: 'number' } } };
    await mc.registerTool({ name: 'cart', description: 'Reads the cart', outputSchema, execute: () => '{}' });
    const [tool] = await mc.getTools();
    expect(tool.outputSchema).toEqual(outputSchema);
    expect(tool.outputSchema).not.toBe(outputSchema);
    expect(Object.keys(tool)).toEqual(['description', 'name', 'origin', 'outputSchema', 'title', 'window']);
    const cyclic: Record<string, unknown> = {};
    cyclic.c = cyclic;
    await expect(mc.registerTool({ name: 'z', description: 'd', outputSchema: cyclic, execute: () => 1 })).rejects.toThrow(TypeError);
    expect((await mc.getTools()).map((t) => t.name)).toEqual(['cart']);
  });

  it('validates like Chromium: bad names, duplicates, missing execute, cyclic schemas', async () => {
    const mc = new PolyfillModelContext(win());
    await expect(mc.registerTool({ name: 'bad name', description: 'd', execute: () => 1 })).rejects.toThrow('Invalid tool name');
    await mc.registerTool({ name: 'x', description: 'd', execute: () => 1 });
    await expect(mc.registerTool({ name: 'x', description: 'd', execute: () => 1 })).rejects.toThrow('Duplicate tool name');
    await expect(mc.registerTool({ name: 'y', description: 'd' })).rejects.toThrow(
      "Failed to read the 'execute' property from 'ModelContextTool': Required member is undefined.",
    );
    await expect(mc.registerTool({ name: 'y', description: '', execute: () => 1 })).rejects.toThrow('Description is required');
    await expect(Reflect.apply(mc.registerTool, mc, [])).rejects.toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.c = cyclic;
    await expect(mc.registerTool({ name: 'z', description: 'd', inputSchema: cyclic, execute: () => 1 })).rejects.toThrow();
  });

  it('executes with an object input (none: a fresh {}; arrays are objects) and serialises results like Chromium', async () => {
    const mc = new PolyfillModelContext(win());
    await mc.registerTool({ name: 'echo', description: 'd', execute: (i: unknown) => i });
    await mc.registerTool({ name: 'text', description: 'd', execute: () => 'plain' });
    await mc.registerTool({ name: 'none', description: 'd', execute: () => undefined });
    await mc.registerTool({ name: 'boom', description: 'd', execute: () => Promise.reject(new Error('nope')) });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await mc.registerTool({ name: 'cyclic', description: 'd', execute: () => cyclic });
    const echo = await toolOf(mc, 'echo');
    expect(await mc.executeTool(echo, { a: 1 })).toBe('{"a":1}');
    expect(await mc.executeTool(echo)).toBe('{}');
    expect(await mc.executeTool(echo, undefined)).toBe('{}');
    expect(await mc.executeTool(echo, [1, 2])).toBe('[1,2]');
    expect(await mc.executeTool(await toolOf(mc, 'text'), {})).toBe('plain');
    expect(await mc.executeTool(await toolOf(mc, 'none'), {})).toBe('undefined');
    for (const input of ['{"b":2}', 1, null, true]) {
      await expect(mc.executeTool(echo, input)).rejects.toThrow('invalid input object: value is not an object');
    }
    await expect(mc.executeTool(echo, { toJSON: () => undefined })).rejects.toThrow('toJSON() returns undefined');
    await expect(mc.executeTool(await toolOf(mc, 'boom'), {})).rejects.toThrow('Tool was executed but the invocation failed: nope');
    await expect(mc.executeTool(await toolOf(mc, 'cyclic'), {})).rejects.toMatchObject({ name: 'UnknownError' });
    await expect(mc.executeTool({ ...echo, name: 'missing' }, {})).rejects.toMatchObject({ name: 'UnknownError' });
  });

  it('reads the tool dictionary as native does: required members, a real Window, this document’s tool', async () => {
    const mc = new PolyfillModelContext(win());
    await mc.registerTool({ name: 'echo', description: 'd', execute: (i: unknown) => i });
    const echo = await toolOf(mc, 'echo');
    await expect(mc.executeTool({ name: 'echo' }, {})).rejects.toThrow("Failed to read the 'description' property");
    await expect(mc.executeTool({ name: 'echo', description: 'd', window }, {})).rejects.toThrow("Failed to read the 'origin' property");
    await expect(mc.executeTool({ ...echo, window: {} }, {})).rejects.toThrow("Failed to convert value to 'Window'");
    await expect(mc.executeTool({ ...echo, origin: 'https://elsewhere.example' }, {})).rejects.toMatchObject({ name: 'UnknownError' });
    // The description is not part of who the tool is.
    expect(await mc.executeTool({ ...echo, description: 'other' }, { a: 1 })).toBe('{"a":1}');
  });

  it('registers nothing for an already-aborted signal, and fires toolchange before the registration resolves', async () => {
    const mc = new PolyfillModelContext(win());
    const order: string[] = [];
    mc.addEventListener('toolchange', () => order.push('toolchange'));
    const aborted = new AbortController();
    aborted.abort('why');
    await expect(mc.registerTool({ name: 'a', description: 'd', execute: () => 1 }, { signal: aborted.signal })).rejects.toBe('why');
    await mc.registerTool({ name: 'b', title: 'x\uD800y', description: 'd', execute: () => 1 }).then(() => order.push('resolved'));
    expect(order).toEqual(['toolchange', 'resolved']);
    expect((await mc.getTools()).map((t) => [t.name, t.title])).toEqual([['b', 'x\uFFFDy']]);
  });

  it('rejects a registration whose signal aborts while it is pending with the reason, at once; the tool comes and goes', async () => {
    const mc = new PolyfillModelContext(win());
    const order: unknown[] = [];
    mc.addEventListener('toolchange', () => order.push('toolchange'));
    const controller = new AbortController();
    const registration = mc.registerTool({ name: 'a', description: 'd', execute: () => 1 }, { signal: controller.signal });
    const reason = { why: 'gone' };
    controller.abort(reason);
    await registration.then(
      () => order.push('resolved'),
      (error: unknown) => order.push(error === reason ? 'rejected with the reason' : error),
    );
    await tick();
    expect(order).toEqual(['rejected with the reason', 'toolchange', 'toolchange']);
    expect(await mc.getTools()).toEqual([]);
    // Through the legacy shim too: the page gets registerTool's own promise.
    installLegacyShim(win(), mc as never);
    const late = new AbortController();
    const shimmed = mc.registerTool({ name: 'b', description: 'd', execute: () => 1 }, { signal: late.signal });
    late.abort('later');
    await expect(shimmed).rejects.toBe('later');
  });

  it('dispatches ToolActivatedEvent at itself, with its handler attribute, never at the window', async () => {
    const mc = new PolyfillModelContext(win());
    await mc.registerTool({ name: 'echo', description: 'd', execute: (i: unknown) => i });
    const seen: unknown[] = [];
    mc.ontoolactivated = (e: Event) => seen.push(['handler', (e as Event & { toolName: string }).toolName, e.constructor.name]);
    const onWindow = () => seen.push('window');
    window.addEventListener('toolactivated', onWindow);
    await mc.executeTool(await toolOf(mc, 'echo'), {});
    window.removeEventListener('toolactivated', onWindow);
    expect(seen).toEqual([['handler', 'echo', 'ToolActivatedEvent']]);
    const Ctor = (window as unknown as { ToolActivatedEvent: new (t: string, i: { toolName: string }) => Event & { toolName: string } })
      .ToolActivatedEvent;
    expect(new Ctor('toolactivated', { toolName: 'x' }).toolName).toBe('x');
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
    await expect(mc.executeTool(await toolOf(mc, 'throws'), {})).rejects.toThrow('Tool was executed but the invocation failed');
    await expect(mc.executeTool(await toolOf(mc, 'rejects'), {})).rejects.toThrow('Tool was executed but the invocation failed');
  });

  it('a result that cannot be read (a hostile Proxy) still settles the call, as a failure', async () => {
    const mc = new PolyfillModelContext(win());
    const [, proxy] = HOSTILE_THROWN.find(([label]) => label.startsWith('a Proxy'))!;
    await mc.registerTool({ name: 'odd', description: 'd', execute: () => proxy() });
    // Resolving with it reads its `then`, which throws: that is the tool failing, described like any throw.
    await expect(mc.executeTool(await toolOf(mc, 'odd'), {})).rejects.toThrow('Tool was executed but the invocation failed: trap');
  });

  it('aborting a call rejects it at once, then aborts the tool signal with an AbortError, then fires toolcancel (native order)', async () => {
    const mc = new PolyfillModelContext(win());
    const order: string[] = [];
    await mc.registerTool({
      name: 'hang',
      description: 'd',
      execute: (_: unknown, client: { signal: AbortSignal }) => {
        client.signal.addEventListener('abort', () => order.push(`signal ${(client.signal.reason as DOMException).name}`));
        return new Promise(() => {});
      },
    });
    const cancelled = new Promise((resolve) => mc.addEventListener('toolcancel', resolve, { once: true }));
    mc.addEventListener('toolcancel', (e) => order.push(`toolcancel ${(e as Event & { toolName: string }).toolName}`));
    const controller = new AbortController();
    const call = mc.executeTool(await toolOf(mc, 'hang'), {}, { signal: controller.signal });
    call.catch((e) => order.push(`rejected ${e}`));
    await tick();
    controller.abort('stop');
    await cancelled;
    expect(order).toEqual(['rejected stop', 'signal AbortError', 'toolcancel hang']);
  });

  it('a call aborted before its tool started still starts it, then aborts its signal', async () => {
    const mc = new PolyfillModelContext(win());
    const order: string[] = [];
    await mc.registerTool({
      name: 'hang',
      description: 'd',
      execute: (_: unknown, client: { signal: AbortSignal }) => {
        order.push(`started aborted=${client.signal.aborted}`);
        client.signal.addEventListener('abort', () => order.push('signal'));
        return new Promise(() => {});
      },
    });
    const cancelled = new Promise((resolve) => mc.addEventListener('toolcancel', resolve, { once: true }));
    const controller = new AbortController();
    const call = mc.executeTool(await toolOf(mc, 'hang'), {}, { signal: controller.signal });
    call.catch(() => order.push('rejected'));
    controller.abort();
    await cancelled;
    expect(order).toEqual(['rejected', 'started aborted=false', 'signal']);
  });

  it('settles two tasks after the tool did, after a task the tool queued and one that task queued', async () => {
    const mc = new PolyfillModelContext(win());
    const order: string[] = [];
    await mc.registerTool({
      name: 'queues',
      description: 'd',
      execute: () => {
        setTimeout(() => {
          order.push('task');
          setTimeout(() => order.push('nested task'), 0);
        }, 0);
        return 'done';
      },
    });
    order.push(String(await mc.executeTool(await toolOf(mc, 'queues'), {})));
    expect(order).toEqual(['task', 'nested task', 'done']);
  });
});

type FrameWindow = Window & typeof globalThis;
const openedFrames: HappyWindow[] = [];
afterEach(async () => {
  for (const frame of openedFrames.splice(0)) await frame.happyDOM.close();
});

/** A window of a frame tree: `children` become its frames (window[i], length) and their `top` is the tree's top. */
function frameWindow(url: string, children: FrameWindow[] = []): FrameWindow {
  const happy = new HappyWindow({ url });
  openedFrames.push(happy);
  const frame = happy as unknown as FrameWindow;
  // A browser's window has MessageChannel (the polyfill's calls settle through one); happy-dom's Window has not.
  Object.defineProperty(frame, 'MessageChannel', { configurable: true, value: MessageChannel });
  Object.defineProperty(frame, 'length', { configurable: true, get: () => children.length });
  for (const [i, child] of children.entries()) {
    Object.defineProperty(frame, i, { configurable: true, value: child });
    Object.defineProperty(child, 'parent', { configurable: true, value: frame });
  }
  return frame;
}

function setTop(top: FrameWindow, frames: FrameWindow[]): void {
  for (const frame of [top, ...frames]) Object.defineProperty(frame, 'top', { configurable: true, value: top });
}

describe('PolyfillModelContext in a frame tree', () => {
  it('lists the same-origin documents’ tools by name, then breadth first; runs each in its own document; skips other origins', async () => {
    const a1 = frameWindow('https://shop.test/a1');
    const a = frameWindow('https://shop.test/a', [a1]);
    const b = frameWindow('https://shop.test/b');
    const other = frameWindow('https://other.test/');
    const top = frameWindow('https://shop.test/', [a, other, b]);
    setTop(top, [a, a1, b, other]);
    const contexts = new Map([top, a, a1, b, other].map((frame) => [frame, new PolyfillModelContext(frame)]));
    // The page delegated tools to the cross-origin frame (allow="tools"), as the extension's background answers.
    settleToolsPolicy(contexts.get(other)!, true);
    // What a browser does when a page reads a cross-origin window's origin.
    Object.defineProperty(other, 'origin', {
      configurable: true,
      get: () => {
        throw new DOMException('Blocked a frame from accessing a cross-origin frame.', 'SecurityError');
      },
    });
    const activated: string[] = [];
    for (const [frame, mc] of contexts) {
      const label = frame === top ? 'top' : new URL(frame.location.href).pathname;
      mc.addEventListener('toolactivated', (e) => activated.push(`${label}:${(e as Event & { toolName: string }).toolName}`));
      await mc.registerTool({ name: 'same', description: label, execute: () => label });
    }
    await contexts.get(b)!.registerTool({ name: 'a_first', description: 'd', execute: () => 'b' });
    const tools = await contexts.get(a1)!.getTools();
    expect(tools.map((t) => [t.name, t.description, t.window === top ? 'top' : new URL(t.window.location.href).pathname])).toEqual([
      ['a_first', 'd', '/b'],
      ['same', 'top', 'top'],
      ['same', '/a', '/a'],
      ['same', '/b', '/b'],
      ['same', '/a1', '/a1'],
    ]);
    const results = [];
    for (const tool of tools) results.push(await contexts.get(top)!.executeTool(tool, {}));
    expect(results).toEqual(['b', 'top', '/a', '/b', '/a1']);
    expect(activated).toEqual(['/b:a_first', 'top:same', '/a:same', '/b:same', '/a1:same']);
    // The cross-origin frame's tool, with a dictionary made up for it, is unknown.
    const forged = { name: 'same', description: 'd', origin: 'https://other.test', window: other };
    await expect(contexts.get(top)!.executeTool(forged, {})).rejects.toMatchObject({ name: 'UnknownError' });
  });

  it('a document cross-origin with its top holds every call until the extension says whether it may use tools', async () => {
    const denied = frameWindow('https://other.test/denied');
    const granted = frameWindow('https://other.test/granted');
    const top = frameWindow('https://shop.test/', [denied, granted]);
    setTop(top, [denied, granted]);
    const deniedContext = new PolyfillModelContext(denied);
    const grantedContext = new PolyfillModelContext(granted);
    const tool = { name: 't', description: 'd', execute: () => 'ran' };
    const ref = { name: 't', description: 'd', origin: 'https://other.test', window: denied };
    const deniedCalls = [
      deniedContext.registerTool(tool),
      deniedContext.registerTool({ ...tool, name: '' }),
      deniedContext.getTools({ fromOrigins: ['http://a.test'] }),
      deniedContext.executeTool(ref, 5),
    ].map((call) => call.then(String, (error: DOMException) => `${error.name}: ${error.message}`));
    // Argument conversion comes first: a TypeError needs no answer.
    await expect(deniedContext.registerTool({ name: 't', description: 'd' })).rejects.toBeInstanceOf(TypeError);
    const granting = grantedContext.registerTool(tool);
    settleToolsPolicy(deniedContext, false);
    settleToolsPolicy(grantedContext, true);
    const refused = 'NotAllowedError: Access to the feature "tools" is disallowed by permissions policy.';
    expect(await Promise.all(deniedCalls)).toEqual([refused, refused, refused, refused]);
    await expect(deniedContext.getTools()).rejects.toMatchObject({ name: 'NotAllowedError' });
    // An answer stands: a later one changes nothing.
    settleToolsPolicy(deniedContext, true);
    await expect(deniedContext.getTools()).rejects.toMatchObject({ name: 'NotAllowedError' });
    await granting;
    expect((await grantedContext.getTools()).map((t) => t.name)).toEqual(['t']);
  });

  it('fires toolchange in every same-origin document, in tree order, before the registration resolves', async () => {
    const child = frameWindow('https://shop.test/child');
    const top = frameWindow('https://shop.test/', [child]);
    setTop(top, [child]);
    const topContext = new PolyfillModelContext(top);
    const childContext = new PolyfillModelContext(child);
    const log: string[] = [];
    topContext.addEventListener('toolchange', () => log.push('top'));
    childContext.addEventListener('toolchange', () => log.push('child'));
    const controller = new AbortController();
    await childContext.registerTool({ name: 't', description: 'd', execute: () => 1 }, { signal: controller.signal });
    log.push('resolved');
    controller.abort();
    await new Promise((resolve) => childContext.addEventListener('toolchange', resolve, { once: true }));
    expect(log).toEqual(['top', 'child', 'resolved', 'top', 'child']);
  });

  it('a document that is no longer active rejects every method with InvalidStateError; a removed frame’s tool too', async () => {
    const child = frameWindow('https://shop.test/child');
    const top = frameWindow('https://shop.test/', [child]);
    setTop(top, [child]);
    const topContext = new PolyfillModelContext(top);
    const childContext = new PolyfillModelContext(child);
    await childContext.registerTool({ name: 't', description: 'd', execute: () => 1 });
    const [tool] = await topContext.getTools();
    Object.defineProperty(child.document, 'defaultView', { configurable: true, value: null });
    Object.defineProperty(child, 'closed', { configurable: true, value: true });
    const refused = { name: 'InvalidStateError', message: 'The document is not active.' };
    await expect(childContext.registerTool({ name: 'u', description: 'd', execute: () => 1 })).rejects.toMatchObject(refused);
    await expect(childContext.getTools()).rejects.toMatchObject(refused);
    await expect(childContext.executeTool(tool, {})).rejects.toMatchObject(refused);
    await expect(topContext.executeTool(tool, {})).rejects.toMatchObject({
      name: 'InvalidStateError',
      message: 'Target frame is detached.',
    });
  });
});

describe('installLegacyShim', () => {
  it('registers nothing for an already-aborted signal (it never makes a tool that cannot be unregistered)', async () => {
    const mc = new PolyfillModelContext(win());
    installLegacyShim(win(), mc as any);
    const aborted = new AbortController();
    aborted.abort('gone');
    const registration = (mc as any).registerTool({ name: 'a', description: 'd', execute: () => 1 }, { signal: aborted.signal });
    await expect(registration).rejects.toBe('gone');
    expect(await mc.getTools()).toEqual([]);
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

    // For the audit: what came through the alias (kept, here), what through provideContext on document.modelContext,
    // and what through document.modelContext after a look at the alias (today's API).
    const noted = legacyRegistrations(win());
    expect([noted.of('p3'), noted.of('later')]).toEqual(['navigator.modelContext', 'navigator.modelContext']);
    await (document as any).modelContext.provideContext({ tools: [{ name: 'p4', description: 'd', execute: () => 6 }] });
    if ((navigator as any).modelContext)
      await (document as any).modelContext.registerTool({ name: 'new', description: 'd', execute: () => 7 });
    (navigator as any).modelContext.registerTool({ name: 'old', description: 'd', execute: () => 8 });
    await tick();
    expect([noted.of('p4'), noted.of('new'), noted.of('old')]).toEqual(['provideContext', undefined, 'navigator.modelContext']);
  });
});

describe('installModelContextPolyfill on a window the next document may keep', () => {
  it('unregisterTool right after registerTool (a page written for Firefox, or calls the stub replays) removes the tool once it is registered', async () => {
    // The document's polyfill and shim, from the test above (each installs once).
    const mc = (document as any).modelContext as PolyfillModelContext;
    installLegacyShim(win(), mc as any);
    (mc as any).clearContext();
    await tick();
    const legacy = mc as any;
    const gone = legacy.registerTool({ name: 'gone', description: 'd', execute: () => 1 });
    legacy.unregisterTool('gone');
    legacy.unregisterTool('never_registered');
    const kept = legacy.registerTool({ name: 'kept', description: 'd', execute: () => 2 });
    await Promise.allSettled([gone, kept]);
    await tick();
    expect((await mc.getTools()).map((t) => t.name)).toEqual(['kept']);
    // A later registration of the name is not touched by the earlier unregisterTool.
    await legacy.registerTool({ name: 'gone', description: 'd', execute: () => 3 });
    await tick();
    expect((await mc.getTools()).map((t) => t.name).sort()).toEqual(['gone', 'kept']);
    legacy.clearContext();
    await tick();
  });

  it("takes its getter away at the document's last pagehide, so the next document's stub does not take it for native", async () => {
    const happy = new HappyWindow({ url: 'https://shop.test/' });
    const page = happy as unknown as Window;
    const doc = page.document as Document & { modelContext?: unknown };
    const context = installModelContextPolyfill(page);
    expect(doc.modelContext).toBe(context);
    let owner: object | null = Object.getPrototypeOf(doc);
    while (owner && !Object.hasOwn(owner, 'modelContext')) owner = Object.getPrototypeOf(owner);
    const pagehide = (persisted: boolean) =>
      page.dispatchEvent(Object.assign(new happy.Event('pagehide'), { persisted }) as unknown as Event);
    // Only hidden, kept for back/forward: the page comes back to its modelContext.
    pagehide(true);
    expect(doc.modelContext).toBe(context);
    pagehide(false);
    expect(Object.hasOwn(owner as object, 'modelContext')).toBe(false);
    await happy.happyDOM.close();
  });
});

/**
 * WebMCP conformance (issue 23): behaviours of `document.modelContext` written from the WebMCP spec's algorithms
 * (webmachinelearning/webmcp) and from what the public web-platform-tests' `webmcp/` files assert, not copied from
 * them. Each test runs in three configurations (playwright.config.ts): `reference`, native Chromium without the
 * extension, which defines the expected behaviour; `polyfill`, the extension's polyfill; `native`, native
 * Chromium with the extension, which must change nothing. Differences that cannot be closed from a page are
 * listed in docs/webmcp-conformance.md.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { StaticServer } from '../servers/static-server';
import { expect, test } from './fixtures';

/**
 * A fresh conformance page, with `settle(promise)` defined in it: how a call ended, as `['ok', value]` or
 * `['rejected', 'TypeError:TypeError' | 'DOMException:UnknownError' | 'string:<reason>']`.
 */
async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/conformance.html`);
  await page.evaluate(() => {
    const nameOf = (e: any) => (e && typeof e === 'object' ? `${e.constructor.name}:${e.name}` : `${typeof e}:${String(e)}`);
    (window as any).settle = (promise: Promise<unknown>) =>
      Promise.resolve(promise).then(
        (value) => ['ok', value],
        (e) => ['rejected', nameOf(e)],
      );
  });
  return page;
}

test('executeTool takes no input or undefined as a fresh {}, arrays as objects, and refuses every non-object', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const result = await page.evaluate(async () => {
    const settle = (window as any).settle;
    const mc = (document as any).modelContext;
    const received: unknown[] = [];
    await mc.registerTool({
      name: 'echo',
      description: 'Echoes its input',
      execute: (input: unknown) => {
        received.push(input);
        return 'ok';
      },
    });
    const [tool] = await mc.getTools();
    const out: Record<string, unknown> = {};
    for (const [label, args] of [
      ['none', []],
      ['undefined', [undefined]],
      ['array', [[1, 2, 3]]],
      ['string', ['hello']],
      ['json text', ['{"a":1}']],
      ['number', [123]],
      ['boolean', [true]],
      ['null', [null]],
      ['toJSON undefined', [{ toJSON: () => undefined }]],
    ] as const) {
      out[label] = await settle(mc.executeTool(tool, ...args));
    }
    return { out, received };
  });
  expect(result.out).toEqual({
    none: ['ok', 'ok'],
    undefined: ['ok', 'ok'],
    array: ['ok', 'ok'],
    string: ['rejected', 'TypeError:TypeError'],
    'json text': ['rejected', 'TypeError:TypeError'],
    number: ['rejected', 'TypeError:TypeError'],
    boolean: ['rejected', 'TypeError:TypeError'],
    null: ['rejected', 'TypeError:TypeError'],
    'toJSON undefined': ['rejected', 'TypeError:TypeError'],
  });
  expect(result.received).toEqual([{}, {}, [1, 2, 3]]);
});

test('executeTool serialises results as native does, and a result that cannot be serialised rejects with UnknownError', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const settle = (window as any).settle;
    const mc = (document as any).modelContext;
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const results: Record<string, unknown> = { object: { a: 1 }, number: 5, string: 'plain', undefined: undefined, cyclic };
    for (const [name, value] of Object.entries(results)) {
      await mc.registerTool({ name: `r_${name}`, description: name, execute: () => value });
    }
    const tools = await mc.getTools();
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(results)) {
      const tool = tools.find((t: { name: string }) => t.name === `r_${name}`);
      out[name] = await settle(mc.executeTool(tool, {}));
    }
    return out;
  });
  expect(out).toEqual({
    object: ['ok', '{"a":1}'],
    number: ['ok', '5'],
    string: ['ok', 'plain'],
    undefined: ['ok', 'undefined'],
    cyclic: ['rejected', 'DOMException:UnknownError'],
  });
});

test('executeTool reads its tool argument as a dictionary: missing members and a non-Window are TypeErrors, another tool is UnknownError', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const settle = (window as any).settle;
    const mc = (document as any).modelContext;
    await mc.registerTool({ name: 'legit', description: 'A legitimate tool', execute: () => 'ran' });
    const [tool] = await mc.getTools();
    const run = (candidate: unknown) => settle(mc.executeTool(candidate, {}));
    return {
      listed: Object.keys(tool),
      sameWindow: tool.window === window,
      origin: tool.origin === location.origin,
      nameOnly: await run({ name: 'legit' }),
      noOrigin: await run({ name: 'legit', description: tool.description, window }),
      noWindow: await run({ name: 'legit', description: tool.description, origin: location.origin }),
      notAWindow: await run({ ...tool, window: {} }),
      unknownName: await run({ ...tool, name: 'nope' }),
      otherOrigin: await run({ ...tool, origin: 'https://elsewhere.example' }),
      otherDescription: await run({ ...tool, description: 'something else' }),
      copy: await run({ ...tool }),
    };
  });
  expect(out).toEqual({
    listed: ['description', 'name', 'origin', 'title', 'window'],
    sameWindow: true,
    origin: true,
    nameOnly: ['rejected', 'TypeError:TypeError'],
    noOrigin: ['rejected', 'TypeError:TypeError'],
    noWindow: ['rejected', 'TypeError:TypeError'],
    notAWindow: ['rejected', 'TypeError:TypeError'],
    unknownName: ['rejected', 'DOMException:UnknownError'],
    otherOrigin: ['rejected', 'DOMException:UnknownError'],
    otherDescription: ['ok', 'ran'],
    copy: ['ok', 'ran'],
  });
});

test('registerTool validates as native does, and lists title as a USVString and annotations in full', async ({ context, server }) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const settle = (window as any).settle;
    const mc = (document as any).modelContext;
    const attempt = (...args: unknown[]) => settle(mc.registerTool(...args));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const out: Record<string, unknown> = {
      noArguments: await attempt(),
      noExecute: await attempt({ name: 'x', description: 'd' }),
      emptyName: await attempt({ name: '', description: 'd', execute: () => 1 }),
      badName: await attempt({ name: 'a b', description: 'd', execute: () => 1 }),
      longName: await attempt({ name: 'n'.repeat(129), description: 'd', execute: () => 1 }),
      emptyDescription: await attempt({ name: 'x', description: '', execute: () => 1 }),
      cyclicSchema: await attempt({ name: 'x', description: 'd', inputSchema: cyclic, execute: () => 1 }),
      undefinedSchema: await attempt({ name: 'x', description: 'd', inputSchema: { toJSON: () => undefined }, execute: () => 1 }),
      first: await attempt({
        name: 'shown',
        title: 'a\uD800b',
        description: 'd',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        annotations: { readOnlyHint: true },
        execute: () => 1,
      }),
      duplicate: await attempt({ name: 'shown', description: 'd', execute: () => 1 }),
    };
    const [tool] = await mc.getTools();
    out.listed = { ...tool, window: tool.window === window, origin: tool.origin === location.origin };
    out.titleCode = tool.title.charCodeAt(1);
    return out;
  });
  expect(out).toEqual({
    noArguments: ['rejected', 'TypeError:TypeError'],
    noExecute: ['rejected', 'TypeError:TypeError'],
    emptyName: ['rejected', 'DOMException:InvalidStateError'],
    badName: ['rejected', 'DOMException:InvalidStateError'],
    longName: ['rejected', 'DOMException:InvalidStateError'],
    emptyDescription: ['rejected', 'DOMException:InvalidStateError'],
    cyclicSchema: ['rejected', 'TypeError:TypeError'],
    undefinedSchema: ['rejected', 'TypeError:TypeError'],
    first: ['ok', undefined],
    duplicate: ['rejected', 'DOMException:InvalidStateError'],
    listed: {
      annotations: { consequentialHint: false, debugging: false, readOnlyHint: true, untrustedContentHint: false },
      description: 'd',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      name: 'shown',
      origin: true,
      title: 'a\uFFFDb',
      window: true,
    },
    titleCode: 0xfffd,
  });
});

test('registerTool with an already-aborted signal rejects with its reason and registers nothing; a later abort unregisters; toolchange comes before the registration resolves', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const order: string[] = [];
    mc.addEventListener('toolchange', () => order.push('toolchange'));
    const aborted = new AbortController();
    aborted.abort('the reason');
    const refused = await (window as any).settle(
      mc.registerTool({ name: 'early', description: 'd', execute: () => 1 }, { signal: aborted.signal }),
    );
    const later = new AbortController();
    await mc
      .registerTool({ name: 'later', description: 'd', execute: () => 1 }, { signal: later.signal })
      .then(() => order.push('resolved'));
    const listed = (await mc.getTools()).map((t: { name: string }) => t.name);
    later.abort();
    await new Promise((resolve) => mc.addEventListener('toolchange', resolve, { once: true }));
    return { refused, listed, after: (await mc.getTools()).map((t: { name: string }) => t.name), order };
  });
  expect(out).toEqual({
    refused: ['rejected', 'string:the reason'],
    listed: ['later'],
    after: [],
    order: ['toolchange', 'resolved', 'toolchange'],
  });
});

test('a registration whose signal aborts before it settles rejects at once with the reason, and its tool comes and goes; one aborted after stays resolved', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    // Once WebMCP is in use (under the polyfill: once it has loaded; before that, see docs/webmcp-conformance.md).
    await mc.getTools();
    const explain = (e: any) => (e instanceof DOMException ? `${e.name}: ${e.message}` : e);
    const out: Record<string, unknown> = {};
    let count = 0;
    for (const when of ['at once', 'at once, no reason', 'in a microtask', 'in a later microtask', 'at toolchange', 'once resolved']) {
      const name = `tool_${count++}`;
      const log: unknown[] = [];
      const reason = when === 'at once, no reason' ? undefined : { why: when };
      const controller = new AbortController();
      const abort = () => {
        log.push('abort');
        controller.abort(reason);
      };
      let changes = 0;
      let twoChanged = () => {};
      const twoChanges = new Promise<void>((resolve) => {
        twoChanged = resolve;
      });
      const onChange = () => {
        log.push('toolchange');
        if (++changes === 2) twoChanged();
      };
      mc.addEventListener('toolchange', onChange);
      if (when === 'at toolchange') mc.addEventListener('toolchange', abort, { once: true });
      const registration = mc.registerTool({ name, description: 'd', execute: () => 1 }, { signal: controller.signal });
      if (when.startsWith('at once')) abort();
      if (when === 'in a microtask') queueMicrotask(abort);
      if (when === 'in a later microtask') queueMicrotask(() => queueMicrotask(abort));
      const settled = registration.then(
        (value: unknown) => log.push(['resolved', value]),
        (error: unknown) => log.push(['rejected', error === reason ? 'the reason' : explain(error)]),
      );
      queueMicrotask(() => log.push('a microtask queued after the call'));
      await settled;
      if (when === 'once resolved') abort();
      // Registered, then unregistered: two toolchanges in every case.
      await twoChanges;
      mc.removeEventListener('toolchange', onChange);
      const listed = (await mc.getTools()).some((t: { name: string }) => t.name === name);
      // The name is free again.
      const again = await mc.registerTool({ name, description: 'd', execute: () => 2 }).then(() => 'registered');
      out[when] = { log, listed, again };
    }
    return out;
  });
  const after = { listed: false, again: 'registered' };
  expect(out).toEqual({
    'at once': { log: ['abort', ['rejected', 'the reason'], 'a microtask queued after the call', 'toolchange', 'toolchange'], ...after },
    'at once, no reason': {
      log: [
        'abort',
        ['rejected', 'AbortError: signal is aborted without reason'],
        'a microtask queued after the call',
        'toolchange',
        'toolchange',
      ],
      ...after,
    },
    'in a microtask': {
      log: ['abort', 'a microtask queued after the call', ['rejected', 'the reason'], 'toolchange', 'toolchange'],
      ...after,
    },
    'in a later microtask': {
      log: ['a microtask queued after the call', 'abort', ['rejected', 'the reason'], 'toolchange', 'toolchange'],
      ...after,
    },
    'at toolchange': {
      log: ['a microtask queued after the call', 'toolchange', 'abort', ['rejected', 'the reason'], 'toolchange'],
      ...after,
    },
    'once resolved': { log: ['a microtask queued after the call', 'toolchange', ['resolved', undefined], 'abort', 'toolchange'], ...after },
  });
});

test('options that are no dictionary, and a signal that is no AbortSignal (null included), reject with TypeError, and nothing is registered or run', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const settle = (window as any).settle;
    const mc = (document as any).modelContext;
    let ran = 0;
    const tool = (name: string) => ({ name, description: 'A tool', execute: () => ++ran });
    const lookAlike = { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {} };
    const frameSignal = await new Promise<AbortSignal>((resolve) => {
      const frame = document.createElement('iframe');
      frame.onload = () => resolve(new (frame.contentWindow as any).AbortController().signal);
      document.body.append(frame);
    });
    // Options both methods refuse with TypeError before doing anything.
    const refused = [
      ['options 5', 5],
      ['options text', 'x'],
      ['signal 5', { signal: 5 }],
      ['signal {}', { signal: {} }],
      ['signal null', { signal: null }],
      ['signal look-alike', { signal: lookAlike }],
    ] as const;
    const register: Record<string, unknown> = {};
    for (const [label, options] of refused) {
      register[label] = await settle(mc.registerTool(tool(`r_${Object.keys(register).length}`), options));
    }
    for (const [label, options] of [
      ['options null', null],
      ['signal undefined', { signal: undefined }],
      ['signal of another frame', { signal: frameSignal }],
    ] as const) {
      register[label] = await settle(mc.registerTool(tool(label.replace(/\W/g, '_')), options));
    }
    await mc.registerTool(tool('run_me'));
    const listed = (await mc.getTools()).find((t: { name: string }) => t.name === 'run_me');
    const execute: Record<string, unknown> = {};
    for (const [label, options] of refused) {
      execute[label] = await settle(mc.executeTool(listed, {}, options));
    }
    const ranBefore = ran;
    execute['options null'] = await settle(mc.executeTool(listed, {}, null));
    execute['signal of another frame'] = await settle(mc.executeTool(listed, {}, { signal: frameSignal }));
    const names = (await mc.getTools()).map((t: { name: string }) => t.name).sort();
    return { register, execute, ranBefore, ran, names };
  });
  const typeError = ['rejected', 'TypeError:TypeError'];
  expect(out.register).toEqual({
    'options 5': typeError,
    'options text': typeError,
    'signal 5': typeError,
    'signal {}': typeError,
    'signal null': typeError,
    'signal look-alike': typeError,
    'options null': ['ok', undefined],
    'signal undefined': ['ok', undefined],
    'signal of another frame': ['ok', undefined],
  });
  expect(out.execute).toEqual({
    'options 5': typeError,
    'options text': typeError,
    'signal 5': typeError,
    'signal {}': typeError,
    'signal null': typeError,
    'signal look-alike': typeError,
    'options null': ['ok', '1'],
    'signal of another frame': ['ok', '2'],
  });
  expect(out.ranBefore).toBe(0);
  expect(out.ran).toBe(2);
  expect(out.names).toEqual(['options_null', 'run_me', 'signal_of_another_frame', 'signal_undefined']);
});

test('toolactivated is a ToolActivatedEvent dispatched at document.modelContext, with ontoolactivated; the event classes exist', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const w = window as any;
    const seen: unknown[] = [];
    await mc.registerTool({ name: 'act', description: 'd', execute: () => 'done' });
    const [tool] = await mc.getTools();
    mc.addEventListener('toolactivated', (e: any) =>
      seen.push({
        type: e.type,
        toolName: e.toolName,
        isToolActivatedEvent: e instanceof w.ToolActivatedEvent,
        atModelContext: e.target === mc,
        bubbles: e.bubbles,
        cancelable: e.cancelable,
      }),
    );
    mc.ontoolactivated = (e: any) => seen.push(`handler:${e.toolName}`);
    const onWindow = () => seen.push('window');
    window.addEventListener('toolactivated', onWindow);
    const result = await mc.executeTool(tool, {});
    window.removeEventListener('toolactivated', onWindow);
    const made = new w.ToolCancelEvent('toolcancel', { toolName: 'x' });
    return {
      result,
      seen,
      handlers: ['ontoolchange', 'ontoolactivated', 'ontoolcancel'].map((h) => h in mc),
      constructed: [made.type, made.toolName, made instanceof Event],
    };
  });
  expect(out).toEqual({
    result: 'done',
    seen: [
      { type: 'toolactivated', toolName: 'act', isToolActivatedEvent: true, atModelContext: true, bubbles: false, cancelable: false },
      'handler:act',
    ],
    handlers: [true, true, true],
    constructed: ['toolcancel', 'x', true],
  });
});

test('ToolActivatedEvent and ToolCancelEvent are Event interfaces as native exposes them, from the start: their init dictionaries, members, TypeErrors, and the events fired are theirs', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const attempt = (fn: () => unknown) => {
      try {
        return ['ok', fn()];
      } catch (e: any) {
        return [`${e.constructor.name}:${e.name}`, e.message];
      }
    };
    const descriptorOf = (target: object, key: PropertyKey) => {
      const d = Object.getOwnPropertyDescriptor(target, key) as PropertyDescriptor & Record<string, unknown>;
      return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, typeof v === 'function' ? `function ${v.name}/${v.length}` : v]));
    };
    const show = (e: any) => [e.type, e.toolName, e.bubbles, e.cancelable, e.composed, e.isTrusted, Object.prototype.toString.call(e)];
    // Before the page touched document.modelContext, as a feature test would.
    const before = ['ToolActivatedEvent', 'ToolCancelEvent'].map((name) => [name in window, typeof w[name]]);
    const out: Record<string, unknown> = { before };
    for (const name of ['ToolActivatedEvent', 'ToolCancelEvent']) {
      const C = w[name];
      const read: string[] = [];
      const spy = new Proxy({}, { get: (_t, key) => void read.push(String(key)) });
      // Assigning to a getter-only member: ignored in sloppy code, a TypeError naming the interface in strict code.
      const setSloppy = new Function('e', 'e.toolName = "b"; return e.toolName;');
      const setStrict = new Function('e', '"use strict"; e.toolName = "b";');
      class Sub extends C {}
      const sub = new (Sub as any)('sub', { toolName: 'q' });
      out[name] = {
        onWindow: descriptorOf(window, name),
        length: descriptorOf(C, 'length'),
        name: descriptorOf(C, 'name'),
        prototype: { ...descriptorOf(C, 'prototype'), value: undefined },
        staticKeys: Reflect.ownKeys(C).map(String),
        inherits: [Object.getPrototypeOf(C) === Event, Object.getPrototypeOf(C.prototype) === Event.prototype],
        protoKeys: Reflect.ownKeys(C.prototype).map(String),
        toolName: descriptorOf(C.prototype, 'toolName'),
        constructor: descriptorOf(C.prototype, 'constructor'),
        tag: descriptorOf(C.prototype, Symbol.toStringTag),
        'no new': attempt(() => C('x')),
        'no arguments': attempt(() => new C()),
        'type only': attempt(() => show(new C('x'))),
        'full init': attempt(() => show(new C('x', { toolName: 'abc', bubbles: true, cancelable: true, composed: true }))),
        'init null': attempt(() => show(new C('x', null))),
        'init undefined': attempt(() => show(new C('x', undefined))),
        'init a function': attempt(() => show(new C('x', () => 1))),
        'init a number': attempt(() => show(new C('x', 5))),
        'init a string': attempt(() => show(new C('x', 'abc'))),
        'type a number': attempt(() => show(new C(5))),
        'type a Symbol': attempt(() => show(new C(Symbol('s')))),
        'toolName a number': attempt(() => new C('x', { toolName: 5 }).toolName),
        'toolName null': attempt(() => new C('x', { toolName: null }).toolName),
        'toolName undefined': attempt(() => new C('x', { toolName: undefined }).toolName),
        'toolName an object': attempt(() => new C('x', { toolName: { toString: () => 'named' } }).toolName),
        'toolName a Symbol': attempt(() => new C('x', { toolName: Symbol('s') }).toolName),
        'toolName a lone surrogate': attempt(() => new C('x', { toolName: 'a\uD800' }).toolName.charCodeAt(1)),
        'a throwing member': attempt(
          () =>
            new C('x', {
              get toolName() {
                throw new RangeError('from the page');
              },
            }),
        ),
        'init read in order': [attempt(() => new C('x', spy)).at(0), read],
        'toolName of another event': attempt(() => Object.getOwnPropertyDescriptor(C.prototype, 'toolName')?.get?.call(new Event('x'))),
        'toolName of the prototype': attempt(() => C.prototype.toolName),
        'assigned (sloppy)': attempt(() => setSloppy(new C('x', { toolName: 'a' }))),
        'assigned (strict)': attempt(() => setStrict(new C('x', { toolName: 'a' }))),
        subclass: [sub.toolName, sub instanceof C, Object.getPrototypeOf(sub) === Sub.prototype, sub.type],
        'initEvent keeps toolName': attempt(() => {
          const e = new C('x', { toolName: 'kept' });
          e.initEvent('y', true, true);
          return show(e);
        }),
      };
    }
    // The events a call fires are instances of these interfaces.
    const mc = (document as any).modelContext;
    await mc.registerTool({
      name: 'waits',
      description: 'd',
      execute: (_input: unknown, { signal }: { signal: AbortSignal }) =>
        new Promise((resolve) => signal.addEventListener('abort', resolve)),
    });
    const [tool] = await mc.getTools();
    const fired: unknown[] = [];
    const record = (e: any) =>
      fired.push([e.type, e.toolName, e.constructor === w.ToolActivatedEvent, e.constructor === w.ToolCancelEvent, e instanceof Event]);
    mc.addEventListener('toolactivated', record);
    mc.addEventListener('toolcancel', record);
    const controller = new AbortController();
    const call = mc.executeTool(tool, {}, { signal: controller.signal }).catch(() => 'aborted');
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    const cancelled = new Promise((resolve) => mc.addEventListener('toolcancel', resolve, { once: true }));
    controller.abort();
    await Promise.all([call, cancelled]);
    out.fired = fired;
    return out;
  });
  expect(out.before).toEqual([
    [true, 'function'],
    [true, 'function'],
  ]);
  for (const name of ['ToolActivatedEvent', 'ToolCancelEvent']) {
    const fail = (message: string) => ['TypeError:TypeError', `Failed to construct '${name}': ${message}`];
    const event = (type: string, toolName: string, flags = false) => [
      'ok',
      [type, toolName, flags, flags, flags, false, `[object ${name}]`],
    ];
    expect(out[name], name).toEqual({
      onWindow: { value: `function ${name}/1`, writable: true, enumerable: false, configurable: true },
      length: { value: 1, writable: false, enumerable: false, configurable: true },
      name: { value: name, writable: false, enumerable: false, configurable: true },
      prototype: { value: undefined, writable: false, enumerable: false, configurable: false },
      staticKeys: ['length', 'name', 'prototype'],
      inherits: [true, true],
      protoKeys: ['toolName', 'constructor', 'Symbol(Symbol.toStringTag)'],
      toolName: { get: 'function get toolName/0', set: undefined, enumerable: true, configurable: true },
      constructor: { value: `function ${name}/1`, writable: true, enumerable: false, configurable: true },
      tag: { value: name, writable: false, enumerable: false, configurable: true },
      'no new': fail("Please use the 'new' operator, this DOM object constructor cannot be called as a function."),
      'no arguments': fail('1 argument required, but only 0 present.'),
      'type only': event('x', ''),
      'full init': event('x', 'abc', true),
      'init null': event('x', ''),
      'init undefined': event('x', ''),
      'init a function': event('x', ''),
      'init a number': fail(`The provided value is not of type '${name}Init'.`),
      'init a string': fail(`The provided value is not of type '${name}Init'.`),
      'type a number': event('5', ''),
      'type a Symbol': fail('Cannot convert a Symbol value to a string'),
      'toolName a number': ['ok', '5'],
      'toolName null': ['ok', 'null'],
      'toolName undefined': ['ok', ''],
      'toolName an object': ['ok', 'named'],
      'toolName a Symbol': fail(`Failed to read the 'toolName' property from '${name}Init': Cannot convert a Symbol value to a string`),
      // A DOMString: a lone surrogate stays.
      'toolName a lone surrogate': ['ok', 0xd800],
      'a throwing member': ['RangeError:RangeError', 'from the page'],
      // WebIDL reads the inherited EventInit members first, each dictionary's in code-point order.
      'init read in order': ['ok', ['bubbles', 'cancelable', 'composed', 'toolName']],
      'toolName of another event': ['TypeError:TypeError', 'Illegal invocation'],
      'toolName of the prototype': ['TypeError:TypeError', 'Illegal invocation'],
      'assigned (sloppy)': ['ok', 'a'],
      'assigned (strict)': ['TypeError:TypeError', `Cannot set property toolName of #<${name}> which has only a getter`],
      subclass: ['q', true, true, 'sub'],
      'initEvent keeps toolName': ['ok', ['y', 'kept', true, true, false, false, `[object ${name}]`]],
    });
  }
  expect(out.fired).toEqual([
    ['toolactivated', 'waits', true, false, true],
    ['toolcancel', 'waits', false, true, true],
  ]);
});

test('aborting executeTool rejects it with AbortError', async ({ context, server }) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    await mc.registerTool({ name: 'hangs', description: 'd', execute: () => new Promise(() => {}) });
    const [tool] = await mc.getTools();
    const controller = new AbortController();
    const call = mc.executeTool(tool, {}, { signal: controller.signal });
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    controller.abort();
    return (window as any).settle(call);
  });
  expect(out).toEqual(['rejected', 'DOMException:AbortError']);
});

test('an abort rejects the call at once, then aborts the tool’s signal with an AbortError, then fires toolcancel; for a tool of this document or of a same-origin frame', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const frame = await new Promise<HTMLIFrameElement>((resolve) => {
      const f = document.createElement('iframe');
      f.src = '/conformance.html?frame';
      f.onload = () => resolve(f);
      document.body.append(f);
    });
    const mc = (document as any).modelContext;
    const log: string[] = [];
    const tools: Record<string, unknown> = {};
    for (const [where, doc] of [
      ['here', document],
      ['frame', frame.contentDocument as Document],
    ] as const) {
      const owner = (doc as any).modelContext;
      await owner.registerTool({
        name: `hangs_${where}`,
        description: 'd',
        execute: (_input: unknown, { signal }: { signal: AbortSignal }) => {
          log.push('tool started');
          signal.addEventListener('abort', () => {
            log.push(`signal aborted: ${(signal.reason as DOMException)?.name}`);
            queueMicrotask(() => log.push('a microtask the signal listener queued'));
          });
          // It answers once aborted: too late, the call stays rejected.
          return new Promise((resolve) => signal.addEventListener('abort', () => resolve('late')));
        },
      });
      owner.addEventListener('toolactivated', () => log.push('toolactivated'));
      owner.addEventListener('toolcancel', (e: any) => log.push(`toolcancel ${e.toolName}`));
      tools[where] = (await mc.getTools()).find((t: { name: string }) => t.name === `hangs_${where}`);
    }
    const out: Record<string, string[]> = {};
    for (const where of ['here', 'frame']) {
      const owner = where === 'here' ? mc : (frame.contentDocument as any).modelContext;
      for (const when of ['once activated', 'at once']) {
        log.length = 0;
        const controller = new AbortController();
        const call = mc.executeTool(tools[where], {}, { signal: controller.signal });
        const rejected = call.then(
          (value: unknown) => log.push(`resolved ${value}`),
          (reason: unknown) => log.push(`rejected: ${String(reason)}`),
        );
        if (when === 'once activated') await new Promise((resolve) => owner.addEventListener('toolactivated', resolve, { once: true }));
        const cancelled = new Promise((resolve) => owner.addEventListener('toolcancel', resolve, { once: true }));
        controller.abort('the reason');
        queueMicrotask(() => log.push('a microtask queued after abort()'));
        await Promise.all([rejected, cancelled]);
        out[`${where}, ${when}`] = [...log];
      }
    }
    return out;
  });
  const after = ['signal aborted: AbortError', 'a microtask the signal listener queued'];
  expect(out).toEqual({
    'here, once activated': [
      'tool started',
      'toolactivated',
      'rejected: the reason',
      'a microtask queued after abort()',
      ...after,
      'toolcancel hangs_here',
    ],
    // Aborted before its tool started: the tool still starts, and only then is its signal aborted.
    'here, at once': [
      'rejected: the reason',
      'a microtask queued after abort()',
      'tool started',
      'toolactivated',
      ...after,
      'toolcancel hangs_here',
    ],
    'frame, once activated': [
      'tool started',
      'toolactivated',
      'rejected: the reason',
      'a microtask queued after abort()',
      ...after,
      'toolcancel hangs_frame',
    ],
    'frame, at once': [
      'rejected: the reason',
      'a microtask queued after abort()',
      'tool started',
      'toolactivated',
      ...after,
      'toolcancel hangs_frame',
    ],
  });
});

test('executeTool settles after the tasks its tool queued: a timer, a message, a timer queued as the answer came', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const log: string[] = [];
    // Not a timer that a timer of the tool queues: native's answer, a round trip through the browser, came before
    // it in some runs and after it in others.
    const tools: Record<string, () => unknown> = {
      a_timer: () => {
        setTimeout(() => log.push('timer'), 0);
        return 'r';
      },
      a_message: () => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => log.push('message');
        channel.port2.postMessage(1);
        return 'r';
      },
      answers_in_a_timer: () =>
        new Promise((resolve) =>
          setTimeout(() => {
            log.push('timer answers');
            resolve('r');
            setTimeout(() => log.push('timer queued with the answer'), 0);
          }, 0),
        ),
      throws_after_a_timer: () => {
        setTimeout(() => log.push('timer'), 0);
        throw new Error('no');
      },
    };
    for (const [name, execute] of Object.entries(tools)) await mc.registerTool({ name, description: 'd', execute });
    mc.addEventListener('toolactivated', () => log.push('toolactivated'));
    const listed = await mc.getTools();
    const out: Record<string, string[]> = {};
    for (const name of Object.keys(tools)) {
      log.length = 0;
      await mc
        .executeTool(
          listed.find((t: { name: string }) => t.name === name),
          {},
        )
        .then(
          () => log.push('resolved'),
          (e: DOMException) => log.push(`rejected ${e.name}`),
        );
      out[name] = [...log];
    }
    return out;
  });
  expect(out).toEqual({
    a_timer: ['toolactivated', 'timer', 'resolved'],
    a_message: ['toolactivated', 'message', 'resolved'],
    answers_in_a_timer: ['toolactivated', 'timer answers', 'timer queued with the answer', 'resolved'],
    throws_after_a_timer: ['toolactivated', 'timer', 'rejected UnknownError'],
  });
});

test('what the extension adds on a page never changes the page’s WebMCP: the same registerTool, and no legacy alias on native', async ({
  context,
  server,
  withExtension,
  nativeWebMCP,
}) => {
  const page = await openPage(context, server.url);
  const before = await page.evaluate(() => {
    const mc = (document as any).modelContext;
    (window as any).originalRegisterTool = mc.registerTool;
    return mc.registerTool({ name: 'wake', description: 'Registering a tool wakes the extension', execute: () => 1 });
  });
  expect(before).toBeUndefined();
  if (withExtension) {
    // The registration loads the extension's bridge into the page; after that, the page's API is still its own.
    await expect.poll(() => page.evaluate(() => Object.hasOwn(window, Symbol.for('webmcp-agent.page-bridge')))).toBe(true);
  }
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const aborted = new AbortController();
    aborted.abort('gone');
    const refused = await (window as any).settle(
      mc.registerTool({ name: 'early', description: 'd', execute: () => 1 }, { signal: aborted.signal }),
    );
    return {
      sameRegisterTool: mc.registerTool === (window as any).originalRegisterTool,
      refused,
      listed: (await mc.getTools()).map((t: { name: string }) => t.name),
      navigatorAlias: 'modelContext' in navigator,
    };
  });
  expect(out).toEqual({ sameRegisterTool: true, refused: ['rejected', 'string:gone'], listed: ['wake'], navigatorAlias: !nativeWebMCP });
});

/** Pages served with `Origin-Agent-Cluster: ?0`: not origin-keyed, so `document.domain` is settable there. */
const domainEnabledServers = new WeakSet<object>();
function serveDomainEnabledPage(server: StaticServer): string {
  if (!domainEnabledServers.has(server)) {
    domainEnabledServers.add(server);
    server.route((req, res) => {
      if (!req.url?.startsWith('/domain-enabled.html')) return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'origin-agent-cluster': '?0', 'cache-control': 'no-store' });
      res.end(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>document.domain enabled</title></head><body><p>Not origin-keyed.</p></body></html>',
      );
      return true;
    });
  }
  return `${server.url}/domain-enabled.html`;
}

/** registerTool, getTools and executeTool on a page where document.domain is settable, as `settle` reports them. */
async function useWebMCPWithDomainEnabled(context: BrowserContext, server: StaticServer): Promise<unknown> {
  const page = await context.newPage();
  await page.goto(serveDomainEnabledPage(server));
  return page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const settle = (promise: Promise<unknown>) =>
      Promise.resolve(promise).then(
        (value) => ['ok', value],
        (e) => ['rejected', `${e?.name}: ${e?.message}`],
      );
    const registered = await settle(mc.registerTool({ name: 'echo', description: 'Echoes', execute: (input: unknown) => input }));
    const listed = await settle(mc.getTools().then((tools: { name: string }[]) => tools.map((t) => t.name)));
    const ran = await settle(mc.executeTool({ name: 'echo', description: 'Echoes', origin: location.origin, window }, { a: 1 }));
    return { originAgentCluster: window.originAgentCluster, registered, listed, ran };
  });
}

test('where document.domain is settable, registerTool, getTools and executeTool work as anywhere: the spec has no such precondition (webmcp PR #330)', async ({
  context,
  server,
}, testInfo) => {
  // The spec's behaviour, which Chromium 156 does not follow yet (the next test): the polyfill's only.
  test.skip(testInfo.project.name !== 'polyfill', 'Chromium 156 still refuses (docs/webmcp-conformance.md)');
  expect(await useWebMCPWithDomainEnabled(context, server)).toEqual({
    originAgentCluster: false,
    registered: ['ok', undefined],
    listed: ['ok', ['echo']],
    ran: ['ok', '{"a":1}'],
  });
});

test('Chromium 156 still refuses registerTool, getTools and executeTool with SecurityError where document.domain is settable (recorded; the spec dropped that in webmcp PR #330)', async ({
  context,
  server,
}, testInfo) => {
  // What native does today, recorded so that a Chromium that follows the spec shows up here; the extension does
  // not change it on a native page.
  test.skip(testInfo.project.name === 'polyfill', 'The polyfill follows the spec (the test before)');
  const refused = ['rejected', 'SecurityError: document.modelContext cannot be used when document.domain is enabled.'];
  expect(await useWebMCPWithDomainEnabled(context, server)).toEqual({
    originAgentCluster: false,
    registered: refused,
    listed: refused,
    ran: refused,
  });
});

/** A call of a tool that is unregistered while it runs: by itself, the WPT's case, and by the page meanwhile. */
async function unregisterWhileRunning(page: Page): Promise<unknown> {
  return page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const own = new AbortController();
    await mc.registerTool(
      {
        name: 'self_unregistering',
        description: 'Aborts its own registration before it answers',
        execute: async () => {
          own.abort();
          return { status: 'resolved' };
        },
      },
      { signal: own.signal },
    );
    const [self] = await mc.getTools();
    const selfCall = await w.settle(mc.executeTool(self));
    const other = new AbortController();
    let finish = (_value: unknown) => {};
    let started = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const aborted: boolean[] = [];
    await mc.registerTool(
      {
        name: 'unregistered_meanwhile',
        description: 'The page unregisters it while it runs',
        execute: (_input: unknown, { signal }: { signal: AbortSignal }) =>
          new Promise((resolve) => {
            finish = resolve;
            signal.addEventListener('abort', () => aborted.push(true));
            started();
          }),
      },
      { signal: other.signal },
    );
    const [tool] = await mc.getTools();
    const call = w.settle(mc.executeTool(tool));
    await running;
    const gone = new Promise((resolve) => mc.addEventListener('toolchange', resolve, { once: true }));
    other.abort();
    await gone;
    finish('done anyway');
    return { selfCall, call: await call, toolSignalAborted: aborted.length > 0, left: (await mc.getTools()).length };
  });
}

test('unregistering a tool does not cancel its running call, whoever unregisters it, as the spec says and Chromium 156 does', async ({
  context,
  server,
}) => {
  // The spec's "unregister a tool": "Note: Unregistering a tool does not cancel an execution that has already
  // invoked its ToolExecuteCallback, including when the callback itself performs the unregistration. The
  // registration-time signal only controls tool availability, while the execution-time signal controls the lifetime
  // of an specific invocation." (webmachinelearning/webmcp index.bs; WPT executeTool-self-unregistration).
  const page = await openPage(context, server.url);
  expect(await unregisterWhileRunning(page)).toEqual({
    selfCall: ['ok', '{"status":"resolved"}'],
    call: ['ok', 'done anyway'],
    toolSignalAborted: false,
    left: 0,
  });
});

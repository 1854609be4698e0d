import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { installModelContextStub, STUB_KEY, type ModelContextStub } from './install-model-context-stub';
import { type MirrorRegister, mirrorFirefoxModelContext } from './mirror-firefox-model-context';
import { WAKE_EVENT } from '../webmcp/wake-event';

type PageWindow = Window & typeof globalThis & Record<PropertyKey, unknown>;
/** The stand-in's interface, as the page sees it on the window. */
type FirefoxInterface = { prototype: { registerTool: (tool: unknown) => undefined; unregisterTool: (name: string) => undefined } };
const opened: HappyWindow[] = [];

afterEach(async () => {
  for (const happy of opened.splice(0)) {
    delete (happy as unknown as { Document: { prototype: Record<string, unknown> } }).Document.prototype.modelContext;
    await happy.happyDOM.close();
  }
});

/**
 * A page world with a stand-in for Firefox's own ModelContext (firefox-esr 153, dom.modelcontext.enabled; a mock,
 * as no Firefox runs under Vitest: the real one is checked by tests/firefox/firefox-webmcp-checks.ts): a registry
 * that keeps the last registration of a name, refuses a tool without a description as Firefox does, and checks its
 * `this` as a WebIDL operation does.
 */
function firefoxWorld() {
  const happy = new HappyWindow({ url: 'https://shop.test/' });
  opened.push(happy);
  Object.defineProperty(happy, 'isSecureContext', { configurable: true, value: true });
  let proto = Object.getPrototypeOf(happy.document);
  while (proto.constructor.name !== 'Document') proto = Object.getPrototypeOf(proto);
  Object.defineProperty(happy, 'Document', { configurable: true, value: proto.constructor });
  const registry = new Map<string, unknown>();
  const brand = new WeakSet<object>();
  class ModelContext {
    constructor() {
      brand.add(this);
    }
    registerTool(tool: { name: string; description?: string; execute?: unknown }): undefined {
      if (!brand.has(this)) throw new TypeError("'registerTool' called on an object that does not implement interface ModelContext.");
      if (tool.description === undefined) throw new TypeError("Missing required 'description' member of ModelContextTool.");
      registry.set(tool.name, tool);
      return undefined;
    }
    unregisterTool(name: string): undefined {
      if (!brand.has(this)) throw new TypeError("'unregisterTool' called on an object that does not implement interface ModelContext.");
      registry.delete(String(name));
      return undefined;
    }
  }
  Object.defineProperty(happy, 'ModelContext', { configurable: true, writable: true, value: ModelContext });
  const firefox = new ModelContext();
  return { win: happy as unknown as PageWindow & { ModelContext: FirefoxInterface }, registry, firefox };
}

/** What the mirror hands the extension's modelContext: each registration with its signal. */
function recorder() {
  const seen: { tool: { name: string }; signal: AbortSignal }[] = [];
  const register: MirrorRegister = (tool, options) => {
    seen.push({ tool: tool as { name: string }, signal: options.signal });
    return Promise.resolve();
  };
  return { seen, register };
}

const tool = (name: string, description = 'A tool.') => ({ name, description, execute: () => name });

describe('mirrorFirefoxModelContext', () => {
  it("registers in Firefox's registry first, then on the extension's modelContext; Firefox's errors reach the page and nothing is mirrored", () => {
    const { win, registry, firefox } = firefoxWorld();
    const { seen, register } = recorder();
    mirrorFirefoxModelContext(win, register);
    const find = tool('find_item');
    expect(firefox.registerTool(find)).toBeUndefined();
    expect(registry.get('find_item')).toBe(find);
    expect(seen.map((s) => s.tool)).toEqual([find]);
    expect(seen[0].signal.aborted).toBe(false);
    expect(() => firefox.registerTool({ name: 'no_description', execute: () => '' })).toThrow(/description/);
    expect(() => win.ModelContext.prototype.registerTool.call({}, tool('forged'))).toThrow(TypeError);
    expect(seen).toHaveLength(1);
    expect(registry.has('forged')).toBe(false);
  });

  it("follows Firefox's registry: a second registration of a name replaces the first, unregisterTool removes it", () => {
    const { win, registry, firefox } = firefoxWorld();
    const { seen, register } = recorder();
    mirrorFirefoxModelContext(win, register);
    firefox.registerTool(tool('find_item', 'old'));
    firefox.registerTool(tool('find_item', 'new'));
    expect(seen.map((s) => [s.signal.aborted, (s.tool as { description?: string }).description])).toEqual([
      [true, 'old'],
      [false, 'new'],
    ]);
    firefox.unregisterTool('find_item');
    expect(seen[1].signal.aborted).toBe(true);
    expect(registry.size).toBe(0);
    // An unknown name, as Firefox: nothing happens.
    expect(() => firefox.unregisterTool('nothing')).not.toThrow();
  });

  it('keeps the operations’ shape: name, length, enumerable and configurable as before', () => {
    const { win } = firefoxWorld();
    const before = Object.getOwnPropertyDescriptor(win.ModelContext.prototype, 'registerTool');
    mirrorFirefoxModelContext(win, recorder().register);
    const after = Object.getOwnPropertyDescriptor(win.ModelContext.prototype, 'registerTool')!;
    expect([after.enumerable, after.configurable, after.writable]).toEqual([before?.enumerable, before?.configurable, before?.writable]);
    expect([after.value.name, after.value.length, 'prototype' in after.value]).toEqual(['registerTool', 1, false]);
    expect(win.ModelContext.prototype.unregisterTool.name).toBe('unregisterTool');
  });

  it('does nothing where there is no ModelContext (the preference off)', () => {
    const { win } = firefoxWorld();
    delete (win as { ModelContext?: unknown }).ModelContext;
    expect(() => mirrorFirefoxModelContext(win, recorder().register)).not.toThrow();
  });

  it('a kept window (initial about:blank, then its document) mirrors into the newest modelContext, not twice', () => {
    const { win, firefox } = firefoxWorld();
    const first = recorder();
    const second = recorder();
    mirrorFirefoxModelContext(win, first.register);
    const wrapped = win.ModelContext.prototype.registerTool;
    mirrorFirefoxModelContext(win, second.register);
    expect(win.ModelContext.prototype.registerTool).toBe(wrapped);
    firefox.registerTool(tool('find_item'));
    expect([first.seen.length, second.seen.length]).toEqual([0, 1]);
  });

  it('a hostile page: a name that throws the second time, a broken extension modelContext, keep Firefox’s registration and throw nothing', () => {
    const { win, registry, firefox } = firefoxWorld();
    mirrorFirefoxModelContext(win, () => {
      throw new Error('the page broke it');
    });
    expect(() => firefox.registerTool(tool('find_item'))).not.toThrow();
    expect(registry.has('find_item')).toBe(true);
    const { seen, register } = recorder();
    const other = firefoxWorld();
    mirrorFirefoxModelContext(other.win, register);
    let reads = 0;
    const slippery = {
      description: 'x',
      execute: () => 'x',
      get name() {
        reads++;
        if (reads > 1) throw new Error('changed my mind');
        return 'slippery';
      },
    };
    expect(() => other.firefox.registerTool(slippery)).not.toThrow();
    expect([other.registry.has('slippery'), seen.length]).toEqual([true, 0]);
    const badName = {
      toString: () =>
        reads++ > 2
          ? (() => {
              throw new Error('no');
            })()
          : 'x',
    };
    expect(() => other.firefox.unregisterTool(badName as unknown as string)).not.toThrow();
  });

  it('with the page-world stub: the first registration on Firefox’s API wakes the extension, and reaches the polyfill with its signal', async () => {
    const { win, firefox } = firefoxWorld();
    let woken = 0;
    win.addEventListener(WAKE_EVENT, () => woken++);
    installModelContextStub(win, undefined, mirrorFirefoxModelContext);
    const find = tool('find_item');
    firefox.registerTool(find);
    expect(woken).toBe(1);
    const calls: [unknown, { signal: AbortSignal }][] = [];
    const real = Object.assign(new win.EventTarget(), {
      registerTool: (t: unknown, options: { signal: AbortSignal }) => {
        calls.push([t, options]);
        return Promise.resolve();
      },
    });
    (win[STUB_KEY] as ModelContextStub).upgrade(real);
    expect(calls.map(([t]) => t)).toEqual([find]);
    firefox.unregisterTool('find_item');
    expect(calls[0][1].signal.aborted).toBe(true);
    // After the upgrade, straight through.
    firefox.registerTool(tool('reserve_item'));
    expect(calls.map(([t]) => (t as { name: string }).name)).toEqual(['find_item', 'reserve_item']);
  });
});

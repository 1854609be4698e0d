import { Window as HappyWindow } from 'happy-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { defineToolEvents, exposeToolEventsLazily } from './define-tool-events';

type PageWindow = Window & typeof globalThis & Record<string, any>;
const opened: HappyWindow[] = [];

function pageWindow(): PageWindow {
  const happy = new HappyWindow({ url: 'https://shop.test/' });
  opened.push(happy);
  return happy as unknown as PageWindow;
}

afterEach(async () => {
  for (const happy of opened.splice(0)) await happy.happyDOM.close();
});

/** What `fn` threw, as `Class: message`. */
function thrown(fn: () => unknown): string {
  try {
    fn();
    return 'nothing';
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
}

describe('exposeToolEventsLazily', () => {
  it('makes both names exist at once and builds the classes on the first read, as data properties', () => {
    const win = pageWindow();
    exposeToolEventsLazily(win);
    expect('ToolActivatedEvent' in win && 'ToolCancelEvent' in win).toBe(true);
    expect(Object.getOwnPropertyDescriptor(win, 'ToolCancelEvent')?.get).toBeTypeOf('function');
    const Activated = win.ToolActivatedEvent;
    expect(Activated).toBe(defineToolEvents(win).ToolActivatedEvent);
    for (const name of ['ToolActivatedEvent', 'ToolCancelEvent']) {
      expect(Object.getOwnPropertyDescriptor(win, name)).toEqual({
        value: defineToolEvents(win)[name as 'ToolCancelEvent'],
        writable: true,
        enumerable: false,
        configurable: true,
      });
    }
  });

  it('lets a page replace a name before anything read it, and keeps the page’s value', () => {
    const win = pageWindow();
    exposeToolEventsLazily(win);
    win.ToolCancelEvent = 'mine';
    const classes = defineToolEvents(win);
    expect(win.ToolCancelEvent).toBe('mine');
    expect(win.ToolActivatedEvent).toBe(classes.ToolActivatedEvent);
    expect(new classes.ToolCancelEvent('toolcancel', { toolName: 't' }).toolName).toBe('t');
  });
});

describe('defineToolEvents', () => {
  it('builds Event interfaces with native’s shape: length 1, its name, a read-only prototype, toolName first', () => {
    const win = pageWindow();
    const { ToolActivatedEvent: C } = defineToolEvents(win);
    expect([C.length, C.name, Object.getPrototypeOf(C) === win.Event, Object.getPrototypeOf(C.prototype) === win.Event.prototype]).toEqual([
      1,
      'ToolActivatedEvent',
      true,
      true,
    ]);
    expect(Reflect.ownKeys(C)).toEqual(['length', 'name', 'prototype']);
    expect(Object.getOwnPropertyDescriptor(C, 'prototype')).toMatchObject({ writable: false, enumerable: false, configurable: false });
    expect(Reflect.ownKeys(C.prototype)).toEqual(['toolName', 'constructor', Symbol.toStringTag]);
    const getter = Object.getOwnPropertyDescriptor(C.prototype, 'toolName');
    expect([getter?.get?.name, getter?.enumerable, getter?.configurable, getter?.set]).toEqual(['get toolName', true, true, undefined]);
    expect(Object.prototype.toString.call(new C('x'))).toBe('[object ToolActivatedEvent]');
  });

  it('reads its arguments as WebIDL does, with native’s TypeErrors', () => {
    const win = pageWindow();
    const { ToolCancelEvent: C } = defineToolEvents(win);
    const Any = C as unknown as (...args: unknown[]) => unknown;
    const AnyNew = C as unknown as new (...args: unknown[]) => Event & { toolName: string };
    const prefix = "TypeError: Failed to construct 'ToolCancelEvent': ";
    expect(thrown(() => Any('x'))).toBe(
      `${prefix}Please use the 'new' operator, this DOM object constructor cannot be called as a function.`,
    );
    expect(thrown(() => new AnyNew())).toBe(`${prefix}1 argument required, but only 0 present.`);
    expect(thrown(() => new AnyNew('x', 5))).toBe(`${prefix}The provided value is not of type 'ToolCancelEventInit'.`);
    expect(thrown(() => new AnyNew(Symbol('s')))).toBe(`${prefix}Cannot convert a Symbol value to a string`);
    expect(thrown(() => new AnyNew('x', { toolName: Symbol('s') }))).toBe(
      `${prefix}Failed to read the 'toolName' property from 'ToolCancelEventInit': Cannot convert a Symbol value to a string`,
    );
    const made = new AnyNew(5, { toolName: 7, bubbles: true });
    expect([made.type, made.toolName, made.bubbles, made.cancelable]).toEqual(['5', '7', true, false]);
    expect([null, undefined, () => 1].map((init) => new AnyNew('x', init).toolName)).toEqual(['', '', '']);
    expect(new AnyNew('x', { toolName: null }).toolName).toBe('null');
    expect(new AnyNew('x', { toolName: 'a\uD800' }).toolName).toBe('a\uD800');
  });

  it('answers toolName only for its own events, and subclasses work', () => {
    const win = pageWindow();
    const { ToolActivatedEvent: C } = defineToolEvents(win);
    const get = Object.getOwnPropertyDescriptor(C.prototype, 'toolName')?.get as () => string;
    expect(thrown(() => get.call(new win.Event('x')))).toBe('TypeError: Illegal invocation');
    expect(thrown(() => (C.prototype as { toolName: string }).toolName)).toBe('TypeError: Illegal invocation');
    class Sub extends C {}
    const sub = new Sub('s', { toolName: 'q' });
    expect([sub.toolName, sub instanceof C, Object.getPrototypeOf(sub) === Sub.prototype]).toEqual(['q', true, true]);
  });

  it('builds the classes once per window', () => {
    const win = pageWindow();
    expect(defineToolEvents(win)).toBe(defineToolEvents(win));
    expect(defineToolEvents(pageWindow()).ToolActivatedEvent).not.toBe(defineToolEvents(win).ToolActivatedEvent);
  });
});

/**
 * `ToolActivatedEvent` and `ToolCancelEvent`, as native Chromium 156 exposes them (probed; docs/webmcp-conformance.md):
 * Event interfaces with a read-only `toolName`, dispatched at a document's `modelContext` when one of its tools starts
 * or is cancelled. Each is `[Exposed=Window] interface X : Event { constructor(DOMString type, optional XInit init = {});
 * readonly attribute DOMString toolName; }` with `dictionary XInit : EventInit { DOMString toolName = ""; }`: WebIDL's
 * TypeErrors, in its words, its argument conversions in its order, its property attributes and key order. Defined in
 * the page's realm, on the page's window, like WebIDL interfaces (writable, configurable, not enumerable).
 */

/** The two event classes of one window. */
export interface ToolEventClasses {
  ToolActivatedEvent: new (type: string, init?: { toolName?: string } & EventInit) => Event & { readonly toolName: string };
  ToolCancelEvent: new (type: string, init?: { toolName?: string } & EventInit) => Event & { readonly toolName: string };
}

const NAMES = ['ToolActivatedEvent', 'ToolCancelEvent'] as const;
const DEFINED = Symbol.for('webmcp-agent.tool-events');

/**
 * At `document_start`: the two names exist on the window from the start, as native's interfaces do, but each is an
 * accessor that builds the classes on first read ({@link defineToolEvents}): building them reads `Event`, which
 * makes that interface for the page's world, work a page that never uses them should not pay for. Assigning to one
 * first replaces it, as it would replace native's.
 */
export function exposeToolEventsLazily(win: Window & typeof globalThis): void {
  for (const name of NAMES) {
    Object.defineProperty(win, name, { configurable: true, get: () => defineToolEvents(win)[name], set: (value) => put(win, name, value) });
  }
}

/** A name on the window as WebIDL puts an interface there (writable, configurable, not enumerable). */
const put = (win: object, name: string, value: unknown) => Object.defineProperty(win, name, { configurable: true, writable: true, value });

/**
 * Builds the classes for `win` (once) and returns them; puts them on the window in place of the lazy accessors.
 * A page that put its own value there keeps it.
 */
export function defineToolEvents(win: Window & typeof globalThis): ToolEventClasses {
  const known = (win as unknown as Record<symbol, ToolEventClasses | undefined>)[DEFINED];
  if (known) return known;
  const makers: Maker[] = [];
  // Function expressions under literal keys: each is named by its key from the parse on, the name V8 shows for its
  // instances (`#<ToolActivatedEvent>` in a TypeError); a `name` property set later does not reach there. Functions,
  // not classes: a class cannot say WebIDL's words when called without `new`. Each declares one parameter, so its
  // `length` is 1 as native's, and hands on all the arguments given: WebIDL counts them.
  const classes = {
    ToolActivatedEvent: function (_type: unknown) {
      // biome-ignore lint/complexity/noArguments: WebIDL counts the arguments given, not the parameters declared.
      return makers[0](new.target, arguments);
    },
    ToolCancelEvent: function (_type: unknown) {
      // biome-ignore lint/complexity/noArguments: as above.
      return makers[1](new.target, arguments);
    },
  } as unknown as ToolEventClasses;
  Object.defineProperty(win, DEFINED, { value: classes });
  for (const name of NAMES) {
    makers.push(toolEventMaker(win, name, classes[name]));
    const own = Object.getOwnPropertyDescriptor(win, name);
    if (!own || own.get) put(win, name, classes[name]);
  }
  return classes;
}

/** What one class's constructor does, given `new.target` and all the arguments. */
type Maker = (newTarget: unknown, args: IArguments) => Event;

/** Makes `ctor` the interface `name` (its prototype, its parent) and returns what its constructor does. */
function toolEventMaker(win: Window & typeof globalThis, name: string, ctor: unknown): Maker {
  const names = new WeakMap<object, string>();
  const Base = win.Event;
  const fail = (what: string) => new TypeError(`Failed to construct '${name}': ${what}`);
  const symbolText = 'Cannot convert a Symbol value to a string';
  // Native's prototype lists `toolName` first, then `constructor`, then its tag; the getter is `get toolName`,
  // enumerable as WebIDL attributes are.
  const proto = Object.create(
    Base.prototype,
    Object.getOwnPropertyDescriptors({
      get toolName(): string {
        const value = names.get(this);
        if (value === undefined) throw new TypeError('Illegal invocation');
        return value;
      },
    }),
  );
  Object.defineProperties(proto, {
    constructor: { configurable: true, writable: true, value: ctor },
    [Symbol.toStringTag]: { configurable: true, value: name },
  });
  Object.defineProperty(ctor, 'prototype', { value: proto, writable: false });
  Object.setPrototypeOf(ctor, Base);
  return (newTarget, args) => {
    if (!newTarget) throw fail("Please use the 'new' operator, this DOM object constructor cannot be called as a function.");
    if (!args.length) throw fail('1 argument required, but only 0 present.');
    const type: unknown = args[0];
    const init = args[1] as ({ toolName?: unknown } & EventInit) | null | undefined;
    // WebIDL converts the arguments in order: the type, then the whole dictionary (EventInit's members, read by
    // Event below, then toolName), all before the event exists. A page getter's own error goes through unchanged.
    if (typeof type === 'symbol') throw fail(symbolText);
    if (init != null && typeof init !== 'object' && typeof init !== 'function')
      throw fail(`The provided value is not of type '${name}Init'.`);
    const event = Reflect.construct(Base, [`${type as string}`, init], newTarget as new () => Event) as Event;
    const toolName = init?.toolName;
    if (typeof toolName === 'symbol') throw fail(`Failed to read the 'toolName' property from '${name}Init': ${symbolText}`);
    // A DOMString, not a USVString: a lone surrogate stays.
    names.set(event, toolName === undefined ? '' : `${toolName as string}`);
    return event;
  };
}

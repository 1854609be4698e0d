/**
 * `ToolActivatedEvent` and `ToolCancelEvent`, as native Chromium exposes them: Event subclasses with a read-only
 * `toolName`, dispatched at a document's `modelContext` when one of its tools starts or is cancelled
 * (docs/webmcp-conformance.md). Defined on the page's window like WebIDL interfaces (writable, configurable, not
 * enumerable), in the page's realm, only when the polyfill's context is first built: a page that never touches
 * WebMCP pays nothing for them.
 */

/** The two event classes of one window. */
export interface ToolEventClasses {
  ToolActivatedEvent: new (type: string, init?: { toolName?: string } & EventInit) => Event & { readonly toolName: string };
  ToolCancelEvent: new (type: string, init?: { toolName?: string } & EventInit) => Event & { readonly toolName: string };
}

const DEFINED = Symbol.for('webmcp-agent.tool-events');

/** Defines the classes on `win` (once) and returns them. A page that defined its own keeps them. */
export function defineToolEvents(win: Window & typeof globalThis): ToolEventClasses {
  const known = (win as unknown as Record<symbol, ToolEventClasses | undefined>)[DEFINED];
  if (known) return known;
  const classes = {
    ToolActivatedEvent: toolEventClass(win, 'ToolActivatedEvent'),
    ToolCancelEvent: toolEventClass(win, 'ToolCancelEvent'),
  };
  Object.defineProperty(win, DEFINED, { value: classes });
  for (const [name, value] of Object.entries(classes)) {
    if (!Object.hasOwn(win, name)) Object.defineProperty(win, name, { configurable: true, writable: true, enumerable: false, value });
  }
  return classes;
}

function toolEventClass(win: Window & typeof globalThis, name: string): ToolEventClasses['ToolActivatedEvent'] {
  const names = new WeakMap<object, string>();
  const Base = win.Event;
  const cls = class extends Base {
    constructor(type: string, init: { toolName?: string } & EventInit = {}) {
      // biome-ignore lint/complexity/noArguments: WebIDL counts the arguments given, not the parameters declared.
      if (arguments.length === 0) throw new TypeError(`Failed to construct '${name}': 1 argument required, but only 0 present.`);
      super(type, init);
      names.set(this, init?.toolName === undefined ? '' : String(init.toolName));
    }
    get toolName(): string {
      const value = names.get(this);
      if (value === undefined) throw new TypeError('Illegal invocation');
      return value;
    }
  };
  Object.defineProperty(cls, 'name', { value: name });
  Object.defineProperty(cls.prototype, Symbol.toStringTag, { value: name, configurable: true });
  return cls;
}

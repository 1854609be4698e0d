/**
 * Firefox's own WebMCP (firefox-esr 153 with `dom.modelcontext.enabled`): `navigator.modelContext` is a
 * `ModelContext` with `registerTool(tool)` and `unregisterTool(name)`, whose registry no page script and no extension
 * can list (`getTools()` and `invokeTool()` come only with `dom.modelcontext.testing.enabled`, and list only the
 * calling document's tools). docs/platform-notes.md, "Firefox's own WebMCP".
 *
 * So the page-world stub wraps those two methods on this window's `ModelContext.prototype`: every call still goes to
 * Firefox first (its checks, its errors, its registry: whatever Firefox itself reads keeps working, and
 * `navigator.modelContext` stays Firefox's object), and a registration Firefox accepted is also made on the
 * extension's `document.modelContext` (the stub, later the polyfill), with a signal the mirror aborts when Firefox's
 * `unregisterTool` removes it or a registration of the same name replaces it (Firefox keeps the last one). From there
 * the extension lists, ranks, confirms and runs it like any polyfill tool: the tool's own `execute`, in its document.
 * The first such registration is also the stub's first call, which wakes the extension (the lazy connector).
 * Firefox allows its API in the top window only (a frame gets its NotAllowedError, and nothing is mirrored): frames
 * register on `document.modelContext`, which the stub gives every frame.
 *
 * Up front this costs a page two property definitions, and nothing at all where the preference is off (no
 * `ModelContext`). It runs in the page's realm: a page may replace or delete any of it, which changes only what its
 * own tools look like; the extension's side believes nothing it says (docs/security.md §4).
 */

/** How the mirror registers on the extension's modelContext (the stub's `registerTool`, which forwards to the polyfill). */
export type MirrorRegister = (tool: unknown, options: { signal: AbortSignal }) => unknown;

/**
 * Wraps `registerTool` and `unregisterTool` of `win`'s `ModelContext.prototype`, where there is one with a
 * `registerTool`; `register` is called for each registration Firefox accepted. Only for Firefox's interface: a
 * browser whose `document.modelContext` is native (Chromium) is served by the native path and never calls this.
 */
export function mirrorFirefoxModelContext(win: Window & typeof globalThis, register: MirrorRegister): void {
  const proto = (win as unknown as { ModelContext?: { prototype?: Record<PropertyKey, unknown> } }).ModelContext?.prototype;
  const registerTool = proto?.registerTool;
  const unregisterTool = proto?.unregisterTool;
  if (!proto || typeof registerTool !== 'function' || typeof unregisterTool !== 'function') return;
  // A window kept from a frame's initial about:blank for its next document keeps its realm, and these wrappers: they
  // mirror into the new document's modelContext from now on, not wrapped twice.
  const known = proto[MIRROR_KEY] as MirrorState | undefined;
  if (typeof known === 'object' && known !== null && typeof known.register === 'function') {
    known.register = register;
    known.signals = new Map();
    return;
  }
  /** Where the wrappers mirror to, and the mirrored registrations by the name the mirror read. */
  const state: MirrorState = { register, signals: new Map() };
  Object.defineProperty(proto, MIRROR_KEY, { value: state, configurable: true });
  const drop = (name: string) => {
    state.signals.get(name)?.abort();
    state.signals.delete(name);
  };
  // Method shorthand: each wrapper has the original's name and length, and no prototype, as a WebIDL operation.
  const methods = {
    registerTool(this: unknown, tool: unknown) {
      // Firefox first, with exactly what the page passed: its TypeError for a bad tool reaches the page, and nothing
      // it refused is mirrored.
      // biome-ignore lint/complexity/noArguments: the page's arguments as given, whatever their number.
      const result = Reflect.apply(registerTool, this, arguments);
      try {
        // Read again: a name getter that throws now leaves the tool to Firefox alone.
        const name = String((tool as { name?: unknown }).name);
        drop(name);
        const controller = new AbortController();
        state.signals.set(name, controller);
        // The extension's promise: a tool it refuses (its checks differ a little from Firefox's) is simply not listed.
        Promise.resolve(state.register(tool, { signal: controller.signal })).catch(() => undefined);
      } catch {
        // A page that broke the extension's modelContext: Firefox's registration stands.
      }
      return result;
    },
    unregisterTool(this: unknown, name: unknown) {
      // biome-ignore lint/complexity/noArguments: as above.
      const result = Reflect.apply(unregisterTool, this, arguments);
      try {
        drop(String(name));
      } catch {
        // A name that converted for Firefox and threw now: the page's own tool stays listed.
      }
      return result;
    },
  };
  for (const key of ['registerTool', 'unregisterTool'] as const) {
    Object.defineProperty(proto, key, { ...Object.getOwnPropertyDescriptor(proto, key), value: methods[key] });
  }
}

/** Where a prototype keeps its mirror's state (Symbol.for: the frame's own stub and an adopting one share it). */
const MIRROR_KEY = Symbol.for('webmcp-agent.firefox-mirror');

interface MirrorState {
  register: MirrorRegister;
  signals: Map<string, AbortController>;
}

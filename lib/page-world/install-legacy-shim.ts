/**
 * Keeps pages written for older WebMCP generations working on today's `document.modelContext` (native or the
 * polyfill):
 * - `navigator.modelContext`: the deprecated alias, a getter that follows document.modelContext;
 * - `provideContext({tools})`: replaces the set of tools provided this way;
 * - `clearContext()`: removes every tool registered through the page's modelContext;
 * - `unregisterTool(name)`;
 * - `registerTool(tool)` returning `{unregister()}` (today it returns a Promise; the shim returns that promise
 *   with an `unregister` method, so both generations' callers work).
 * Registration goes through the current registerTool with an AbortSignal the shim controls (unregister = abort).
 * Each tool registered through the alias or provideContext is noted for the audit (legacy-registrations.ts).
 */
import type { LegacyApi } from '../messaging/tab-tool-snapshot';
import { legacyRegistrations } from './legacy-registrations';
import { abortedGetterOf, readAbortSignalMember } from './read-abort-signal-member';

type ModelContextLike = {
  registerTool: (tool: unknown, options?: { signal?: AbortSignal }) => Promise<void>;
  [key: string]: unknown;
};

const SHIMMED = Symbol.for('webmcp-agent.legacy-shim');
const REGISTER_SIGNAL = { operation: 'registerTool', dictionary: 'ModelContextRegisterToolOptions', member: 'signal' };

/** Installs the alias and shims the given context (no-op when already shimmed). */
export function installLegacyShim(win: Window, context: ModelContextLike): void {
  const nav = win.navigator as unknown as Record<string, unknown>;
  const legacy = legacyRegistrations(win);
  if (!('modelContext' in nav)) {
    Object.defineProperty(nav, 'modelContext', {
      configurable: true,
      enumerable: true,
      get: () => {
        const current = (win.document as unknown as { modelContext?: unknown }).modelContext;
        legacy.aliasRead();
        return current;
      },
    });
  }
  if ((context as Record<symbol, unknown>)[SHIMMED]) return;
  Object.defineProperty(context, SHIMMED, { value: true });

  const register = context.registerTool;
  const controllers = new Map<string, AbortController>();
  /** Registrations not settled yet (their names are read once they are), each with its controller. */
  const pending = new Map<Promise<unknown>, AbortController>();
  let provided = new Set<string>();

  const abortedGetter = abortedGetterOf(win as Window & typeof globalThis);
  /** Registers `tool`, noting the legacy API it came through (`api`), or that it came through today's. */
  const registerWith = (tool: unknown, options: { signal?: unknown; exposedTo?: unknown } | undefined, api: LegacyApi | undefined) => {
    // Options that are no dictionary go as they are: registerTool refuses them with native's TypeError.
    if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
      return Reflect.apply(register, context, [tool, options]);
    }
    const controller = new AbortController();
    let name: string | undefined;
    const forget = () => {
      if (name !== undefined && controllers.get(name) === controller) controllers.delete(name);
    };
    controller.signal.addEventListener('abort', forget, { once: true });
    // The page's options as registerTool reads them: each member once, in its order and at its time (the tool's
    // checks and the permissions policy come first, an aborted signal after), with the shim's signal in place of
    // the page's, which it follows.
    const passed = {
      get exposedTo() {
        return options?.exposedTo;
      },
      get signal() {
        // A signal that is no AbortSignal (null included) throws native's TypeError here, where registerTool reads it.
        const signal = readAbortSignalMember(options?.signal, REGISTER_SIGNAL, abortedGetter);
        if (signal?.aborted) controller.abort(signal.reason);
        else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
        return controller.signal;
      },
    };
    // Called synchronously, as the page expects of registerTool; the page gets registerTool's own promise, so it
    // settles when that does (an abort rejects it at once, as native's), and the bookkeeping, attached first, runs
    // before anything the page attaches.
    const registration = Reflect.apply(register, context, [tool, passed]) as Promise<void>;
    const settled = registration.then(() => {
      name = String((tool as { name?: unknown }).name);
      if (!controller.signal.aborted) controllers.set(name, controller);
      legacy.registered(name, api);
    }, forget);
    pending.set(settled, controller);
    void settled.finally(() => pending.delete(settled));
    return Object.assign(registration, { unregister: () => controller.abort() });
  };
  const registerTool = (tool: unknown, options?: { signal?: unknown; exposedTo?: unknown }) => registerWith(tool, options, legacy.apiOf());

  const unregisterTool = (name: unknown) => {
    const key = String(name);
    const registered = controllers.get(key);
    controllers.delete(key);
    if (registered || pending.size === 0) return registered?.abort();
    // Called right after its registerTool (Firefox's API, or a call the stub recorded and replays at once): the
    // registration is not settled yet, so its name is not known here. Once those registrations settle, the one of
    // that name among them goes, as it would have in that order.
    const earlier = new Map(pending);
    void Promise.all(earlier.keys()).then(() => {
      const now = controllers.get(key);
      if (!now || ![...earlier.values()].includes(now)) return;
      now.abort();
      controllers.delete(key);
    });
  };

  const define = (key: string, value: unknown) => Object.defineProperty(context, key, { configurable: true, writable: true, value });
  define('registerTool', registerTool);
  define('unregisterTool', unregisterTool);
  define('clearContext', () => {
    for (const controller of controllers.values()) controller.abort();
    controllers.clear();
    provided = new Set();
  });
  define('provideContext', async (context_: unknown) => {
    // Asked before the first await: by the time its tools register, the page may have read document.modelContext.
    const api = legacy.apiOf('provideContext');
    const tools = (context_ as { tools?: unknown } | undefined)?.tools;
    for (const name of provided) unregisterTool(name);
    provided = new Set();
    if (!Array.isArray(tools)) return;
    // Let the removals reach the implementation before re-registering the same names.
    await Promise.resolve();
    for (const tool of tools) {
      const name = typeof tool === 'object' && tool !== null ? String((tool as { name?: unknown }).name) : '';
      provided.add(name);
      await registerWith(tool, undefined, api).catch((error) => {
        provided.delete(name);
        console.warn('[WebMCP Agent] provideContext could not register a tool:', error);
      });
    }
  });
}

/**
 * Which of the page's tools the polyfill registered through the 2025 API, for the audit (docs/audit.md,
 * `api/legacy-navigator`): native WebMCP has neither the `navigator.modelContext` alias nor `provideContext`, so a
 * page that uses them offers nothing there, though it works here.
 *
 * A call comes through the alias when the page read `navigator.modelContext` last, in the same task
 * (`navigator.modelContext.registerTool(…)`, or `const mc = navigator.modelContext; mc.registerTool(…)`): the alias
 * must return the very object `document.modelContext` does, so its getter notes the read instead of handing out
 * another object, and a read of `document.modelContext` undoes it (`if (navigator.modelContext) …;
 * document.modelContext.registerTool(…)` is today's API). A registration after an `await` on a kept alias goes
 * unnoticed, and one on a `document.modelContext` kept from before, right after reading the alias, counts as the
 * alias's.
 *
 * The state lives on the page's window, since the stub (page-stub.js) and the polyfill (page-bridge.js) are
 * separate scripts. It is in the page's realm: the page can change it, which misleads only its own audit, and
 * whatever leaves this world is checked on the way (isLegacyApi).
 */
import type { LegacyApi } from '../messaging/tab-tool-snapshot';

const KEY = Symbol.for('webmcp-agent.legacy-registrations');

interface State {
  /** The page read `navigator.modelContext` in the current task. */
  aliasRead: boolean;
  /** First arguments of calls the stub recorded through the alias: replayed later, they still came through it. */
  recorded: WeakSet<object>;
  /** The polyfill's tools that came through a legacy API, by name. */
  names: Map<string, LegacyApi>;
}

/** What the stub, the legacy shim and the page channel note and ask (see the file's comment). */
interface LegacyRegistrations {
  /** The page read `navigator.modelContext`: calls made in this task come through the alias. */
  aliasRead(): void;
  /** The page read `document.modelContext`: calls made now come through it. */
  documentRead(): void;
  /** Runs `read` (the extension's own look at `navigator.modelContext`) without counting it as the page's. */
  unnoticed<T>(read: () => T): T;
  /** The stub recorded a call whose first argument is `arg`, to replay it later: remember whether it came through the alias. */
  recorded(arg: unknown): void;
  /** The API a call with first argument `arg` comes through, asked when it is made: the alias, else `otherwise`. */
  apiOf(arg: unknown, otherwise?: LegacyApi): LegacyApi | undefined;
  /** The polyfill registered `name` through `api` (undefined: today's registerTool, which clears an older note). */
  registered(name: string, api: LegacyApi | undefined): void;
  /** The legacy API the polyfill's tool `name` came through, if any. */
  of(name: string): LegacyApi | undefined;
}

/** The window's record, made on first use. */
export function legacyRegistrations(win: Window): LegacyRegistrations {
  const state = stateOf(win);
  return {
    aliasRead() {
      if (state.aliasRead) return;
      state.aliasRead = true;
      queueMicrotask(() => {
        state.aliasRead = false;
      });
    },
    documentRead() {
      state.aliasRead = false;
    },
    unnoticed(read) {
      const before = state.aliasRead;
      try {
        return read();
      } finally {
        state.aliasRead = before;
      }
    },
    recorded(arg) {
      if (state.aliasRead && typeof arg === 'object' && arg !== null) state.recorded.add(arg);
    },
    apiOf(arg, otherwise) {
      const throughAlias = state.aliasRead || (typeof arg === 'object' && arg !== null && state.recorded.has(arg));
      return throughAlias ? 'navigator.modelContext' : otherwise;
    },
    registered(name, api) {
      if (api) state.names.set(name, api);
      else state.names.delete(name);
    },
    of(name) {
      const api = state.names.get(name);
      return isLegacyApi(api) ? api : undefined;
    },
  };
}

/** Whether an untrusted value names a legacy API this extension knows. */
export function isLegacyApi(value: unknown): value is LegacyApi {
  return value === 'navigator.modelContext' || value === 'provideContext';
}

function stateOf(win: Window): State {
  const own = Object.getOwnPropertyDescriptor(win, KEY)?.value as State | undefined;
  if (own && own.recorded instanceof WeakSet && own.names instanceof Map) return own;
  const fresh: State = { aliasRead: false, recorded: new WeakSet(), names: new Map() };
  try {
    Object.defineProperty(win, KEY, { value: fresh });
  } catch {
    // The page took the key first: it only hides its own use of the old API from its own audit.
  }
  return fresh;
}

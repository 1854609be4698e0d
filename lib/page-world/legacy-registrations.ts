/**
 * Which of the page's tools the polyfill registered through the 2025 API, for the audit (docs/audit.md,
 * `api/legacy-navigator`): native WebMCP has neither the `navigator.modelContext` alias nor `provideContext`, so a
 * page that uses them offers nothing there, though it works here.
 *
 * A call comes through the alias when the page read `navigator.modelContext` more recently than
 * `document.modelContext` (`navigator.modelContext.registerTool(…)`, or `const mc = navigator.modelContext;
 * mc.registerTool(…)`). The alias must return the very object `document.modelContext` does, so its getter notes the
 * read instead of handing out another object; a read of `document.modelContext` undoes it (`if
 * (navigator.modelContext) …; document.modelContext.registerTool(…)` is today's API). What this cannot see: a
 * registration on a `document.modelContext` kept from before a read of the alias counts as the alias's, and one on a
 * kept alias after a read of `document.modelContext` as today's.
 *
 * Where the stub ran (page-stub.js, before any page script), it keeps that flag (ModelContextStub.a), also for the
 * calls it recorded and replays; elsewhere the legacy shim's alias and the polyfill's getter keep it here. Either
 * way it is in the page's realm: the page can change it, which misleads only its own audit, and whatever leaves this
 * world is checked on the way (isLegacyApi, lib/messaging/tab-tool-snapshot.ts).
 */
import { isLegacyApi, type LegacyApi } from '../messaging/tab-tool-snapshot';
import { type ModelContextStub, STUB_KEY } from './install-model-context-stub';

const KEY = Symbol.for('webmcp-agent.legacy-registrations');

interface State {
  /** The flag, where no stub keeps it (ModelContextStub.a). */
  a?: boolean;
  /** The polyfill's tools that came through a legacy API, by name. */
  names: Map<string, LegacyApi>;
}

/** What the legacy shim, the polyfill and the page channel note and ask (see the file's comment). */
interface LegacyRegistrations {
  /** The page read `navigator.modelContext`: calls from now come through the alias. */
  aliasRead(): void;
  /** The page read `document.modelContext`: calls from now come through it. */
  documentRead(): void;
  /** Runs `act` (the extension's own look at the alias, the stub's replay) and puts the flag back as it was. */
  unnoticed<T>(act: () => T): T;
  /** The API a call made now comes through: the alias, else `otherwise`. */
  apiOf(otherwise?: LegacyApi): LegacyApi | undefined;
  /** The polyfill registered `name` through `api` (undefined: today's registerTool, which clears an older note). */
  registered(name: string, api: LegacyApi | undefined): void;
  /** The legacy API the polyfill's tool `name` came through, if any. */
  of(name: string): LegacyApi | undefined;
}

/** The window's record, made on first use. */
export function legacyRegistrations(win: Window): LegacyRegistrations {
  const state = stateOf(win);
  const stub = (win as unknown as Record<symbol, ModelContextStub | undefined>)[STUB_KEY];
  const flag: { a?: boolean } = typeof stub === 'object' && stub !== null ? stub : state;
  return {
    aliasRead() {
      flag.a = true;
    },
    documentRead() {
      flag.a = false;
    },
    unnoticed(act) {
      const before = flag.a;
      try {
        return act();
      } finally {
        flag.a = before;
      }
    },
    apiOf: (otherwise) => (flag.a === true ? 'navigator.modelContext' : otherwise),
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

function stateOf(win: Window): State {
  const own = Object.getOwnPropertyDescriptor(win, KEY)?.value as State | undefined;
  if (own && own.names instanceof Map) return own;
  const fresh: State = { names: new Map() };
  try {
    Object.defineProperty(win, KEY, { value: fresh });
  } catch {
    // The page took the key first: it only hides its own use of the old API from its own audit.
  }
  return fresh;
}

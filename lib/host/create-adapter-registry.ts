import type { AdapterStatus, AgentAdapter } from '../agent/types';
import type { AgentKind } from '../messaging/agent-messages';
import { errorMessage } from '../shared/error-message';

/** How the host makes one adapter. */
export interface AdapterFactory {
  kind: AgentKind;
  /** Builds the adapter. A throw makes an adapter that explains the failure as its unavailable reason. */
  create: () => AgentAdapter | Promise<AgentAdapter>;
  /**
   * What the adapter was built from, as a string (the cloud settings, say). When it changes, refresh() builds a
   * new adapter. Without it the adapter is built once.
   */
  key?: () => Promise<string>;
}

/** The adapters the host can run, kept current with the settings they depend on. */
export interface AdapterRegistry {
  /** The adapters built so far, in factory order. */
  list(): { kind: AgentKind; adapter: AgentAdapter }[];
  get(kind: AgentKind): AgentAdapter | undefined;
  /** Builds adapters not built yet and rebuilds those whose key changed. Concurrent calls share one pass. */
  refresh(): Promise<void>;
  /**
   * Says that what the keys read may have changed (a setting or a key was saved): the next current() looks again.
   */
  invalidate(): void;
  /**
   * The adapters as current(): refreshes only when something was invalidated since the last pass began, or none ran
   * yet. A run asks this, not refresh(): on Chrome a key's read is two storage reads through the service worker,
   * which a busy browser makes slow (issue 45), and nothing they read changes without a storage change.
   */
  current(): Promise<void>;
  /** Called when an adapter's status changes or an adapter is rebuilt. */
  subscribe(listener: () => void): () => void;
}

/** Creates a registry over the given factories (see {@link AdapterFactory}). */
export function createAdapterRegistry(factories: readonly AdapterFactory[]): AdapterRegistry {
  const built = new Map<AgentKind, { adapter: AgentAdapter; key?: string; unsubscribe?: () => void }>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  let pass: Promise<void> | undefined;
  /** Bumped by invalidate(); a pass records the one it began under. */
  let generation = 0;
  let passedGeneration = -1;

  const refreshOne = async (factory: AdapterFactory) => {
    const current = built.get(factory.kind);
    let key: string | undefined;
    try {
      key = await factory.key?.();
    } catch {
      key = undefined;
    }
    if (current && (factory.key === undefined || key === current.key)) return;
    let adapter: AgentAdapter;
    try {
      adapter = await factory.create();
    } catch (error) {
      adapter = unavailableAdapter(factory.kind, errorMessage(error));
    }
    current?.unsubscribe?.();
    built.set(factory.kind, { adapter, key, unsubscribe: adapter.subscribe?.(notify) });
    notify();
  };

  const refresh = (): Promise<void> => {
    if (!pass) {
      const began = generation;
      pass = Promise.all(factories.map(refreshOne))
        .then(() => {
          passedGeneration = Math.max(passedGeneration, began);
        })
        .finally(() => {
          pass = undefined;
        });
    }
    return pass;
  };

  return {
    list: () => factories.flatMap((f) => (built.has(f.kind) ? [{ kind: f.kind, adapter: built.get(f.kind)!.adapter }] : [])),
    get: (kind) => built.get(kind)?.adapter,
    refresh,
    invalidate: () => {
      generation++;
    },
    async current() {
      // A pass under way may have read before the change: another follows it.
      while (pass || passedGeneration !== generation) await refresh();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** An adapter that cannot run, saying why: what the person sees when building the real one failed. */
function unavailableAdapter(kind: AgentKind, reason: string): AgentAdapter {
  const status: AdapterStatus = { state: 'unavailable', reason };
  return {
    id: `${kind}-unavailable`,
    label: kind === 'local' ? 'On-device' : 'Cloud',
    status: () => status,
    async *run() {
      yield { type: 'error', error: reason };
    },
  };
}

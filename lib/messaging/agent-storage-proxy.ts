/**
 * Extension storage for Chrome's offscreen document, which has no chrome.storage (chrome.runtime is the only
 * extension API there). The host asks the background with runtime messages; the background answers from
 * browser.storage and forwards change events. Both ends live here so the message shapes are declared once.
 */
import type { StorageArea, StorageChange } from '../storage/storage-area';
import { errorMessage } from '../shared/error-message';

export type StorageAreaName = 'local' | 'session';

/** A storage request from the agent host to the background. */
export type AgentStorageRequest =
  | { type: 'agent-storage'; area: StorageAreaName; op: 'get'; keys: string[] }
  | { type: 'agent-storage'; area: StorageAreaName; op: 'set'; items: Record<string, unknown> }
  | { type: 'agent-storage'; area: StorageAreaName; op: 'remove'; keys: string[] };

/** The background's answer: a value, or an error message (a rejected sendMessage would lose the reason). */
export type AgentStorageResponse = { ok: true; value?: Record<string, unknown> } | { ok: false; error: string };

/** A storage change the background forwards to the host. */
export interface AgentStorageChanged {
  type: 'agent-storage-changed';
  area: StorageAreaName;
  changes: Record<string, StorageChange>;
}

/** The background side: answers one message when it is a storage request; undefined otherwise. */
export function serveAgentStorage(
  message: unknown,
  areas: Record<StorageAreaName, Pick<StorageArea, 'get' | 'set' | 'remove'>>,
): Promise<AgentStorageResponse> | undefined {
  const m = message as AgentStorageRequest;
  if (typeof m !== 'object' || m === null || m.type !== 'agent-storage' || !(m.area in areas)) return undefined;
  const area = areas[m.area];
  const answer = async (): Promise<AgentStorageResponse> => {
    switch (m.op) {
      case 'get':
        return { ok: true, value: await area.get(m.keys) };
      case 'set':
        await area.set(m.items);
        return { ok: true };
      case 'remove':
        await area.remove(m.keys);
        return { ok: true };
      default:
        return { ok: false, error: 'Unknown storage operation.' };
    }
  };
  return answer().catch((error: unknown) => ({ ok: false, error: errorMessage(error) }));
}

/**
 * The change message the background sends when a storage area changes, or undefined when there is nothing the
 * host listens for: conversations are the host's own writes, often large, and echoing them back would only cost.
 */
export function agentStorageChanged(
  area: StorageAreaName,
  changes: Record<string, StorageChange>,
): AgentStorageChanged | undefined {
  const relevant = Object.entries(changes).filter(([key]) => !key.startsWith('conversation'));
  return relevant.length > 0 ? { type: 'agent-storage-changed', area, changes: Object.fromEntries(relevant) } : undefined;
}

/**
 * The host side: a StorageArea that asks the background. `send` is runtime.sendMessage; `onMessage` is
 * runtime.onMessage (for forwarded changes).
 */
export function createAgentStorageProxy(
  area: StorageAreaName,
  send: (request: AgentStorageRequest) => Promise<unknown>,
  onMessage: { addListener(listener: (message: unknown) => void): void },
): StorageArea {
  const listeners = new Set<(changes: Record<string, StorageChange>) => void>();
  onMessage.addListener((message) => {
    const m = message as AgentStorageChanged;
    if (m?.type !== 'agent-storage-changed' || m.area !== area) return;
    for (const listener of [...listeners]) listener(m.changes);
  });
  const ask = async (request: AgentStorageRequest) => {
    const response = (await send(request)) as AgentStorageResponse | undefined;
    if (!response) throw new Error('Extension storage did not answer (the background is not running).');
    if (!response.ok) throw new Error(`Extension storage failed: ${response.error}`);
    return response.value ?? {};
  };
  return {
    get: (keys) => ask({ type: 'agent-storage', area, op: 'get', keys: [...keys] }),
    set: async (items) => void (await ask({ type: 'agent-storage', area, op: 'set', items })),
    remove: async (keys) => void (await ask({ type: 'agent-storage', area, op: 'remove', keys: [...keys] })),
    onChanged: {
      addListener: (listener) => void listeners.add(listener),
      removeListener: (listener) => void listeners.delete(listener),
    },
  };
}

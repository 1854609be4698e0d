/**
 * Extension storage for Chrome's offscreen document, which has no chrome.storage (chrome.runtime is the only
 * extension API there). The host asks the background with runtime messages; the background answers from
 * browser.storage and forwards change events. Both ends live here so the message shapes are declared once.
 */
import type { StorageArea, StorageChange } from './storage-area';
import { errorMessage } from '../shared/error-message';
import { type ChannelHandlers, type ChannelMessage, handleMessage, isMessage, sendMessage } from './channel';

type StorageAreaName = 'local' | 'session';

/** The background's answer: a value, or an error message (a rejected sendMessage would lose the reason). */
type AgentStorageResponse = { ok: true; value?: Record<string, unknown> } | { ok: false; error: string };

/** Agent host → background: the host's storage requests (taken only from extension pages). */
interface StorageChannel {
  'storage/get': { request: { area: StorageAreaName; keys: string[] }; answer: AgentStorageResponse };
  'storage/set': { request: { area: StorageAreaName; items: Record<string, unknown> }; answer: AgentStorageResponse };
  'storage/remove': { request: { area: StorageAreaName; keys: string[] }; answer: AgentStorageResponse };
}

/** Background → agent host, pushed: a storage change the host listens for. */
interface StoragePushChannel {
  'storage/changed': { request: { area: StorageAreaName; changes: Record<string, StorageChange> }; answer: undefined };
}

/** A storage request from the agent host. */
type AgentStorageRequest = ChannelMessage<StorageChannel>;
/** A storage change the background forwards to the host. */
type AgentStorageChanged = ChannelMessage<StoragePushChannel>;

type Areas = Record<StorageAreaName, Pick<StorageArea, 'get' | 'set' | 'remove'>>;

/** The background side: answers one message when it is a storage request; undefined otherwise. */
export function serveAgentStorage(message: unknown, areas: Areas): Promise<AgentStorageResponse> | undefined {
  const areaOf = (name: unknown) => (typeof name === 'string' && Object.hasOwn(areas, name) ? areas[name as StorageAreaName] : undefined);
  const ok = async (task: Promise<unknown> | undefined, value?: Record<string, unknown>): Promise<AgentStorageResponse> => {
    if (!task) return { ok: false, error: 'Unknown storage area.' };
    await task;
    return { ok: true, ...(value ? { value } : {}) };
  };
  const handlers: ChannelHandlers<StorageChannel> = {
    'storage/get': async (m) => {
      const area = areaOf(m.area);
      return area ? { ok: true, value: await area.get(m.keys) } : { ok: false, error: 'Unknown storage area.' };
    },
    'storage/set': (m) => ok(areaOf(m.area)?.set(m.items)),
    'storage/remove': (m) => ok(areaOf(m.area)?.remove(m.keys)),
  };
  if (!areaOf((message as { area?: unknown } | null)?.area)) return undefined;
  return (handleMessage(handlers, message, undefined) as Promise<AgentStorageResponse> | undefined)?.catch((error: unknown) => ({
    ok: false,
    error: errorMessage(error),
  }));
}

/**
 * The change message the background sends when a storage area changes, or undefined when there is nothing the
 * host listens for: conversations are the host's own writes, often large, and echoing them back would only cost.
 */
export function agentStorageChanged(area: StorageAreaName, changes: Record<string, StorageChange>): AgentStorageChanged | undefined {
  const relevant = Object.entries(changes).filter(([key]) => !key.startsWith('conversation'));
  return relevant.length > 0 ? { type: 'storage/changed', area, changes: Object.fromEntries(relevant) } : undefined;
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
    if (!isMessage<StoragePushChannel, 'storage/changed'>(message, 'storage/changed') || message.area !== area) return;
    for (const listener of [...listeners]) listener(message.changes);
  });
  const ask = async <T extends keyof StorageChannel>(type: T, request: StorageChannel[T]['request']) => {
    const response = await sendMessage<StorageChannel, T>(send, type, request);
    if (!response) throw new Error('Extension storage did not answer (the background is not running).');
    if (!response.ok) throw new Error(`Extension storage failed: ${response.error}`);
    return response.value ?? {};
  };
  return {
    get: (keys) => ask('storage/get', { area, keys: [...keys] }),
    set: async (items) => void (await ask('storage/set', { area, items })),
    remove: async (keys) => void (await ask('storage/remove', { area, keys: [...keys] })),
    onChanged: {
      addListener: (listener) => void listeners.add(listener),
      removeListener: (listener) => void listeners.delete(listener),
    },
  };
}

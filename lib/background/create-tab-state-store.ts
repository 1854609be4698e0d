/**
 * Where the router keeps each tab's state in session storage (a service worker can stop at any time): the tab's own
 * record under `bridge:tab:<tabId>`, and each frame's report under `bridge:tab:<tabId>:frame:<frameId>`. A write stores
 * the tab's record and only the frames whose report changed since the last write (a report is never changed in place,
 * only replaced: tab-state.ts), so a frame that re-reports costs a write of its own report, not of its tab's. Issue
 * 45: one tab of sixteen frames kept about 2–4 MB, written whole on every report of any frame; the service worker spent
 * its time serialising that page for storage while other tabs waited.
 */
import type { StoredFrame, TabState } from './tab-state';
import type { SessionStore } from './tool-router-ports';

/** The tab's record as stored: its state less the frames' reports, which have keys of their own. */
type StoredTabRecord = Omit<TabState, 'frames'> & {
  /** The frames whose reports are stored beside it. */
  frameIds?: number[];
  /** A record written whole by an earlier version: its frames inline. */
  frames?: Record<string, StoredFrame>;
};

/** A tab's state in session storage. */
interface TabStateStore {
  /** The tab's stored state (undefined: none stored). */
  read(tabId: number): Promise<TabState | undefined>;
  /** Stores the tab's state: its record, the frames that changed, and removes the frames that went. */
  write(tabId: number, state: TabState): Promise<void>;
  /** Removes everything stored of the tab. */
  remove(tabId: number): Promise<void>;
}

/** The key of a tab's record. */
const tabRecordKey = (tabId: number): string => `bridge:tab:${tabId}`;

/** The key of one frame's report in a tab. */
const frameRecordKey = (tabId: number, frameId: number | string): string => `bridge:tab:${tabId}:frame:${frameId}`;

/** Creates the store over session storage. */
export function createTabStateStore(store: SessionStore): TabStateStore {
  /** Per tab, the frame reports as last written (by identity) or read. */
  const written = new Map<number, Map<string, StoredFrame>>();

  const read = async (tabId: number): Promise<TabState | undefined> => {
    const record = (await store.get([tabRecordKey(tabId)]))[tabRecordKey(tabId)] as StoredTabRecord | undefined;
    if (!record || typeof record !== 'object') return undefined;
    const { frameIds, frames: inline, ...rest } = record;
    const frames: Record<string, StoredFrame> = { ...inline };
    const ids = Array.isArray(frameIds) ? frameIds : [];
    if (ids.length > 0) {
      const stored = await store.get(ids.map((id) => frameRecordKey(tabId, id)));
      for (const id of ids) {
        const frame = stored[frameRecordKey(tabId, id)] as StoredFrame | undefined;
        if (frame) frames[id] = frame;
      }
    }
    // Read as written: an inline record is written out in parts at the next write.
    written.set(tabId, new Map(inline ? [] : Object.entries(frames)));
    return { ...rest, frames } as TabState;
  };

  const write = async (tabId: number, state: TabState): Promise<void> => {
    const last = written.get(tabId) ?? new Map<string, StoredFrame>();
    const { frames, ...rest } = state;
    // As they are now: a report that replaces one while the write is under way is the next write's.
    const now = new Map(Object.entries(frames));
    const items: Record<string, unknown> = {};
    for (const [id, frame] of now) if (last.get(id) !== frame) items[frameRecordKey(tabId, id)] = frame;
    const gone = [...last.keys()].filter((id) => !now.has(id)).map((id) => frameRecordKey(tabId, id));
    items[tabRecordKey(tabId)] = { ...rest, frameIds: [...now.keys()].map(Number) } satisfies StoredTabRecord;
    // The record names only frames stored by this same write or earlier: a reader never misses one it names.
    await store.set(items);
    written.set(tabId, now);
    if (gone.length > 0) await store.remove(gone);
  };

  const remove = async (tabId: number): Promise<void> => {
    const known = [...(written.get(tabId)?.keys() ?? [])];
    written.delete(tabId);
    const record = (await store.get([tabRecordKey(tabId)]))[tabRecordKey(tabId)] as StoredTabRecord | undefined;
    const ids = new Set([...known, ...(Array.isArray(record?.frameIds) ? record.frameIds.map(String) : [])]);
    await store.remove([tabRecordKey(tabId), ...[...ids].map((id) => frameRecordKey(tabId, id))]);
  };

  return { read, write, remove };
}

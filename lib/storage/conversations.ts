/**
 * One conversation per tab, persisted in extension storage so it survives the panel closing, the agent host or
 * service worker restarting, and a browser restart.
 *
 * Tab ids are only unique within one browser session: after a restart Chrome restores the same tabs under new
 * ids, and hands old ids to unrelated tabs. So each record remembers the browser session it was written in (an id
 * kept in session storage, which the browser clears on restart). A tab is matched by id only within the current
 * session; a tab seen for the first time adopts the newest record from an earlier session that was about the same
 * URL (what a restored tab shows), and is never handed a stranger's conversation by id alone.
 *
 * How long a conversation is kept (the rule the README states):
 * - A person closing one tab deletes its conversation at once ({@link ConversationStore.forgetTab}).
 * - A tab closed because its window or the browser closed keeps its conversation, marked closed, so that the
 *   browser's restore (session restore after a restart, reopening a closed window) can hand it to the restored tab,
 *   which adopts it by URL when the panel binds it.
 * - Each browser start keeps the records of this browser session and of the one before it, and deletes the rest
 *   ({@link ConversationStore.keepSessions}): a record nobody adopted during the whole session after the one it was
 *   written in is gone at the next start. At most `limit` records are kept at any time.
 */
import type { AgentMessage } from '../agent/types';
import type { RunOutcome } from '../messaging/agent-messages';
import type { StorageArea } from '../messaging/storage-area';

/** What is stored for one tab. */
interface StoredConversation {
  messages: AgentMessage[];
  lastRun?: RunOutcome;
  /** True while a run was going when this was written: if it is read back with no run going, it was interrupted. */
  running?: boolean;
  /** The tab's URL when the conversation was last written. */
  url?: string;
  /** The origins whose data the conversation holds: its runs' sites, its tools' frames (lib/host/create-tab-conversation.ts). */
  sites?: string[];
}

/** One row of the index: which record belongs to which tab of which browser session. */
interface IndexEntry {
  key: string;
  tabId: number;
  session: string;
  url?: string;
  updatedAt: number;
  /** Its tab closed with its window (or the browser): kept for a restored tab to adopt by URL, in any session. */
  closed?: true;
}

/** Reads and writes per-tab conversations. Operations run one at a time, in call order. */
export interface ConversationStore {
  /** The tab's conversation, adopting one from before a browser restart by URL; undefined when there is none. */
  load(tabId: number, url?: string): Promise<StoredConversation | undefined>;
  save(tabId: number, conversation: StoredConversation): Promise<void>;
  /** Forgets the tab's conversation ("New chat" saves an empty one instead; this is for closed tabs). */
  remove(tabId: number): Promise<void>;
  /**
   * The tab closed. A tab the person closed loses its conversation now; a tab closed with its window or the browser
   * (`keepForRestore`) keeps it, marked closed, for the browser's restore to adopt by URL.
   */
  forgetTab(tabId: number, options?: { keepForRestore?: boolean }): Promise<void>;
  /** Deletes every stored conversation ("Delete all conversations"). */
  removeAll(): Promise<void>;
  /** Deletes every record written in a browser session other than these (the retention sweep at each start). */
  keepSessions(sessions: readonly string[]): Promise<void>;
}

interface ConversationStoreOptions {
  /** This browser session's id (see {@link browserSessionId}). */
  session: string;
  /** Most conversations kept; the least recently written go first. Default 50. */
  limit?: number;
  now?: () => number;
  generateKey?: () => string;
}

const INDEX_KEY = 'conversations';
const recordKey = (key: string) => `conversation:${key}`;

/** Creates the store over a storage area (storage.local in the extension). */
export function createConversationStore(area: StorageArea, options: ConversationStoreOptions): ConversationStore {
  const { session, limit = 50, now = Date.now } = options;
  const generateKey = options.generateKey ?? (() => `${now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`);
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task, task);
    queue = result.catch(() => undefined);
    return result;
  };

  const readIndex = async (): Promise<IndexEntry[]> => {
    const value = (await area.get([INDEX_KEY]))[INDEX_KEY];
    return Array.isArray(value) ? value.filter(isIndexEntry) : [];
  };
  const own = (index: IndexEntry[], tabId: number) => index.find((e) => e.session === session && e.tabId === tabId && !e.closed);
  const drop = async (index: IndexEntry[], gone: IndexEntry[]) => {
    if (gone.length === 0) return;
    await area.set({ [INDEX_KEY]: index.filter((e) => !gone.includes(e)) });
    await area.remove(gone.map((e) => recordKey(e.key)));
  };

  return {
    load: (tabId, url) =>
      serial(async () => {
        const index = await readIndex();
        let entry = own(index, tabId);
        if (!entry && url) {
          const adoptable = index
            .filter((e) => (e.session !== session || e.closed) && e.url === url)
            .sort((a, b) => b.updatedAt - a.updatedAt)[0];
          if (adoptable) {
            adoptable.session = session;
            adoptable.tabId = tabId;
            delete adoptable.closed;
            await area.set({ [INDEX_KEY]: index });
            entry = adoptable;
          }
        }
        if (!entry) return undefined;
        const record = (await area.get([recordKey(entry.key)]))[recordKey(entry.key)];
        return isStoredConversation(record) ? record : undefined;
      }),
    save: (tabId, conversation) =>
      serial(async () => {
        const index = await readIndex();
        let entry = own(index, tabId);
        if (!entry) {
          entry = { key: generateKey(), tabId, session, updatedAt: now() };
          index.push(entry);
        }
        entry.updatedAt = now();
        if (conversation.url) entry.url = conversation.url;
        index.sort((a, b) => b.updatedAt - a.updatedAt);
        const dropped = index.splice(limit);
        await area.set({ [recordKey(entry.key)]: conversation, [INDEX_KEY]: index });
        if (dropped.length > 0) await area.remove(dropped.map((e) => recordKey(e.key)));
      }),
    remove: (tabId) =>
      serial(async () => {
        const index = await readIndex();
        const entry = own(index, tabId);
        if (entry) await drop(index, [entry]);
      }),
    forgetTab: (tabId, options = {}) =>
      serial(async () => {
        const index = await readIndex();
        const entry = own(index, tabId);
        if (!entry) return;
        if (!options.keepForRestore) return drop(index, [entry]);
        entry.closed = true;
        await area.set({ [INDEX_KEY]: index });
      }),
    removeAll: () =>
      serial(async () => {
        const index = await readIndex();
        await area.remove([INDEX_KEY, ...index.map((e) => recordKey(e.key))]);
      }),
    keepSessions: (sessions) =>
      serial(async () => {
        const index = await readIndex();
        await drop(
          index,
          index.filter((e) => !sessions.includes(e.session)),
        );
      }),
  };
}

const SESSION_KEY = 'browserSession';
const SESSIONS_KEY = 'conversationSessions';

/**
 * Records that this browser session has started, in the persistent area, and returns the sessions whose
 * conversations are still kept: this one and the one before it (see the retention rule at the top of this file).
 * Calling it again in the same session changes nothing.
 */
export async function recordBrowserSession(localArea: StorageArea, session: string): Promise<string[]> {
  const stored = (await localArea.get([SESSIONS_KEY]))[SESSIONS_KEY];
  const known = Array.isArray(stored) ? stored.filter((s): s is string => typeof s === 'string') : [];
  if (known.at(-1) === session) return known.slice(-2);
  const kept = [...known.filter((s) => s !== session), session].slice(-2);
  await localArea.set({ [SESSIONS_KEY]: kept });
  return kept;
}

/**
 * This browser session's id, kept in session storage (cleared when the browser restarts, kept across service
 * worker and agent host restarts). Creates it on first use.
 */
export async function browserSessionId(sessionArea: StorageArea, generate: () => string = () => crypto.randomUUID()): Promise<string> {
  const existing = (await sessionArea.get([SESSION_KEY]))[SESSION_KEY];
  if (typeof existing === 'string' && existing) return existing;
  const id = generate();
  await sessionArea.set({ [SESSION_KEY]: id });
  return id;
}

function isIndexEntry(value: unknown): value is IndexEntry {
  const v = value as IndexEntry;
  return typeof v === 'object' && v !== null && typeof v.key === 'string' && typeof v.tabId === 'number' && typeof v.session === 'string';
}

function isStoredConversation(value: unknown): value is StoredConversation {
  return typeof value === 'object' && value !== null && Array.isArray((value as StoredConversation).messages);
}

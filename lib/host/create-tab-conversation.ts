import { reduceStreamPart } from '../agent/reduce-stream-part';
import type { AgentMessage } from '../agent/types';
import type { RunOutcome } from '../messaging/agent-messages';
import type { TaskTab } from '../messaging/task-tabs';
import type { ConversationStore } from '../storage/conversations';
import { createConversationSaver } from './create-conversation-saver';

/** Shown when a stored conversation had a run going that no longer exists. */
export const INTERRUPTED_RUN_ERROR =
  'The reply was interrupted: the browser or the extension restarted while it ran. Press Retry to continue.';

/** One tab's conversation as its session holds it: what runs read and change, what the panel shows, what is saved. */
export interface TabConversation {
  messages: AgentMessage[];
  /** How the last run ended; none while a run goes, nor after a new chat. */
  lastRun: RunOutcome | undefined;
  /** A run is going. Saved too: read back with no run going, the run was interrupted. */
  running: boolean;
  /** The tab's URL when the panel bound it, else the stored one (a browser restart adopts a conversation by URL). */
  url: string | undefined;
  /**
   * The origins whose data this conversation holds: the top-level site where each run ran (the person's messages,
   * the page's title and address) and the frame of each tool whose result the agent read (a delegated frame of
   * another site counts as its own origin). A call to a tool of any other origin while one is in here asks the
   * person (docs/security.md).
   */
  sites: string[];
  /**
   * The tabs the person added to this conversation's task (create-task-tabs.ts), saved with it. As read back from
   * storage it is untrusted until restore-task-tabs.ts has checked each tab against the router.
   */
  tabs: TaskTab[];
  /** Resolves once the stored conversation has been read (and an interrupted run closed and saved). */
  readonly ready: Promise<void>;
  /** Saves within the save delay, together with every other change until then. */
  save(): void;
  /** Saves now; resolves once written (never rejects). */
  flush(): Promise<void>;
  /** Resolves once every save started so far has ended. */
  saved(): Promise<void>;
}

interface TabConversationDeps {
  tabId: number;
  /** The tab's URL when the panel bound it, to adopt a conversation after a browser restart. */
  url?: string;
  store: Pick<ConversationStore, 'load' | 'save'>;
  saveDelayMs: number;
}

/**
 * Creates a tab's conversation and reads the stored one. A stored conversation whose run was still going died with
 * its host: its open calls are closed and the run ends saying so, so Retry can pick it up. Saves are batched
 * (create-conversation-saver.ts), and a save writes only the fields that say something.
 */
export function createTabConversation(deps: TabConversationDeps): TabConversation {
  let ready: Promise<void> = Promise.resolve();
  const conversation: TabConversation = {
    messages: [],
    lastRun: undefined,
    running: false,
    url: deps.url,
    sites: [],
    tabs: [],
    get ready() {
      return ready;
    },
    save: () => saver.schedule(),
    flush: () => saver.flush(),
    saved: () => saver.settled(),
  };
  const saver = createConversationSaver({
    tabId: deps.tabId,
    store: deps.store,
    delayMs: deps.saveDelayMs,
    conversation: () => {
      const { messages, lastRun, running, url, sites, tabs } = conversation;
      return {
        messages,
        ...(lastRun ? { lastRun } : {}),
        ...(running ? { running } : {}),
        ...(url ? { url } : {}),
        ...(sites.length > 0 ? { sites } : {}),
        ...(tabs.length > 0 ? { tabs } : {}),
      };
    },
  });
  ready = (async () => {
    const stored = await deps.store.load(deps.tabId, conversation.url).catch(() => undefined);
    if (!stored) return;
    conversation.messages = stored.messages;
    conversation.lastRun = stored.lastRun;
    conversation.url ??= stored.url;
    conversation.sites = Array.isArray(stored.sites) ? stored.sites.filter((s): s is string => typeof s === 'string') : [];
    conversation.tabs = Array.isArray(stored.tabs) ? stored.tabs : [];
    if (stored.running) {
      // The run died with its host: close its open calls and say so, so Retry can pick it up.
      conversation.messages = reduceStreamPart(conversation.messages, { type: 'finish', reason: 'aborted' });
      conversation.lastRun = { reason: 'error', error: INTERRUPTED_RUN_ERROR };
      await conversation.flush();
    }
  })();
  return conversation;
}

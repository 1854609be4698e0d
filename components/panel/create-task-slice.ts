import { computed, type ReadonlySignal, signal } from '@preact/signals';
import type { AgentClient } from '../../lib/messaging/agent-client';
import { errorMessage } from '../../lib/shared/error-message';
import type { OpenTab, TaskTabLeft } from '../../lib/messaging/task-tabs';
import type { TabLink } from './create-tab-slice';

/** The open tabs of the browser, as the panel's entry point reads them (tabs.query): ids only, the host says the rest. */
export type OpenTabIds = () => Promise<number[]>;

/**
 * The task across tabs of the followed tab's conversation (docs/security.md, "Tasks across tabs"): the open tabs the
 * person may add, as the host describes them, the person's Add and Remove, and the newest note of a tab that left.
 */
export interface TaskSlice {
  /** The open tabs other than the followed one, as the host last described them; undefined until listed. */
  openTabs: ReadonlySignal<OpenTab[] | undefined>;
  /** Asks the host again what the open tabs show. */
  listTabs(): void;
  /** The person adds an open tab to the conversation. */
  addTaskTab(tabId: number): void;
  /** The person removes a tab from the conversation. */
  removeTaskTab(tabId: number): void;
  /** The newest note of a tab that left the task, until the person dismisses it (a newer one replaces it). */
  taskLeft: ReadonlySignal<TaskTabLeft | undefined>;
  dismissTaskLeft(): void;
}

/**
 * Creates the task slice; `clear` forgets the old tab's list. The list is an ask on the client's request line whose
 * updates are the host's descriptions, kept open until the panel lists again or follows another tab (it cancels the
 * ask); one the host drops (it restarted: HOST_LEFT_UNANSWERED) is said in the panel's notice.
 */
export function createTaskSlice(
  client: AgentClient,
  tabs: Pick<TabLink, 'tabId' | 'tab' | 'withTab' | 'notice'>,
  openTabIds: OpenTabIds,
): TaskSlice & { clear(): void } {
  const openTabs = signal<OpenTab[] | undefined>(undefined);
  /** The list asked last; aborted when replaced or forgotten. */
  let listing: AbortController | undefined;
  const dismissed = signal<string | undefined>(undefined);
  const newestLeft = computed(() => tabs.tab.value?.taskLeft?.at(-1));
  const taskLeft = computed(() => {
    const left = newestLeft.value;
    return left && leftKey(left) !== dismissed.value ? left : undefined;
  });
  /** Asks the host to describe the tabs `ids` for tab `id`, cancelling the list asked before. */
  const ask = (id: number, ids: number[]) => {
    listing?.abort();
    const own = new AbortController();
    listing = own;
    const current = () => listing === own && tabs.tabId.value === id;
    const onUpdate = (listed: OpenTab[]) => {
      if (current()) openTabs.value = listed;
    };
    client
      .ask('panel/list-tabs', { tabId: id, tabIds: ids.filter((t) => t !== id) }, { signal: own.signal, onUpdate })
      .catch((error: unknown) => {
        if (current() && !own.signal.aborted) tabs.notice.value = errorMessage(error);
      });
  };
  return {
    openTabs,
    taskLeft,
    clear() {
      openTabs.value = undefined;
      listing?.abort();
      listing = undefined;
    },
    listTabs() {
      tabs.withTab((id) => {
        void openTabIds()
          .catch(() => [])
          .then((ids) => {
            // The tab may have changed while the browser answered: ask only for the tab followed now.
            if (tabs.tabId.value !== id) return;
            ask(id, ids);
          });
      });
    },
    addTaskTab: (addTabId) => tabs.withTab((id) => client.send({ type: 'panel/add-task-tab', tabId: id, addTabId })),
    removeTaskTab: (removeTabId) => tabs.withTab((id) => client.send({ type: 'panel/remove-task-tab', tabId: id, removeTabId })),
    dismissTaskLeft() {
      const left = newestLeft.value;
      if (left) dismissed.value = leftKey(left);
    },
  };
}

/** One note, told apart from the next (the same tab may leave twice, for another reason or at another time). */
function leftKey(left: TaskTabLeft): string {
  return JSON.stringify([left.tabId, left.site, left.reason, left.message]);
}

/**
 * A conversation's task across tabs (docs/security.md, "Tasks across tabs"): the tabs the person added to it, each
 * with the top-level site it showed when added. The conversation's own tab is always in and is not listed. Only the
 * person adds a tab (a `panel/add-task-tab` intent from the extension's own pages: lib/host/create-agent-host.ts);
 * a tab's site comes from the router's snapshot, never from what a panel says. A tab that reaches another site,
 * closes or crashes leaves the task, and the panel is told why.
 */
import type { TaskLeaveReason, TaskTab, TaskTabLeft } from '../messaging/task-tabs';
import { taskTabLeft } from './task-tab-left';

/** Most tabs one task holds besides its own (as many as Gemini in Chrome takes into one question). */
export const MAX_TASK_TABS = 9;

/** Why a tab was not added, in the person's words. */
export const TASK_TAB_REFUSALS = {
  own: 'This tab is always part of its own conversation.',
  already: 'That tab is already part of this task.',
  full: `A task holds at most ${MAX_TASK_TABS + 1} tabs: remove one first.`,
  unknown: 'That tab’s site is not known yet (its page may still be loading, or it is a browser page): try again once it has loaded.',
} as const;

interface TaskTabsDeps {
  /** The tab the conversation belongs to. */
  ownTabId: number;
  /** The top-level site the router's snapshot names for a tab now; undefined when it names none. */
  siteOf: (tabId: number) => Promise<string | undefined>;
  /** The tab set changed. */
  onChange: () => void;
  /** A tab left the task (the panel shows the note). */
  onLeft: (left: TaskTabLeft) => void;
}

/** The tab set of one conversation. */
export interface TaskTabs {
  /** The tabs the person added, in the order added (the conversation's own tab is not listed). */
  list(): TaskTab[];
  /** Whether the task spans more than its own tab. */
  spans(): boolean;
  /** The site a tab was added on, when it is in the task (not the own tab). */
  siteOf(tabId: number): string | undefined;
  /** The person adds a tab: its site is read from the router now. Resolves the refusal, or undefined once added. */
  add(tabId: number): Promise<string | undefined>;
  /** The person removes a tab. */
  remove(tabId: number): void;
  /** The router names the tab's site now: a tab that shows another site leaves (one loading, naming none, stays). */
  notice(tabId: number, site: string | undefined): void;
  /** The tab closed or crashed: it leaves. */
  gone(tabId: number, reason: Extract<TaskLeaveReason, 'closed' | 'crashed'>): void;
  /** Puts back tabs read from storage (checked by restore-task-tabs.ts first). */
  adopt(tabs: readonly TaskTab[]): void;
  /** Forgets every added tab (the conversation ended: New chat). */
  clear(): void;
}

/** Creates a conversation's tab set, holding only its own tab. */
export function createTaskTabs(deps: TaskTabsDeps): TaskTabs {
  let tabs: TaskTab[] = [];
  const refusal = (tabId: number): string | undefined => {
    if (tabId === deps.ownTabId) return TASK_TAB_REFUSALS.own;
    if (tabs.some((t) => t.tabId === tabId)) return TASK_TAB_REFUSALS.already;
    if (tabs.length >= MAX_TASK_TABS) return TASK_TAB_REFUSALS.full;
    return undefined;
  };
  const leave = (tabId: number, reason: TaskLeaveReason, now?: string) => {
    const tab = tabs.find((t) => t.tabId === tabId);
    if (!tab) return;
    tabs = tabs.filter((t) => t !== tab);
    deps.onLeft(taskTabLeft(tab, reason, now));
    deps.onChange();
  };
  return {
    list: () => tabs.map((t) => ({ ...t })),
    spans: () => tabs.length > 0,
    siteOf: (tabId) => tabs.find((t) => t.tabId === tabId)?.site,
    async add(tabId) {
      const before = refusal(tabId);
      if (before) return before;
      // The router's word on the tab's site, never the panel's: a site not known yet is no site to add.
      const site = await deps.siteOf(tabId).catch(() => undefined);
      if (site === undefined) return TASK_TAB_REFUSALS.unknown;
      // Another add may have ended while the site was read.
      const after = refusal(tabId);
      if (after) return after;
      tabs = [...tabs, { tabId, site }];
      deps.onChange();
      return undefined;
    },
    remove: (tabId) => leave(tabId, 'removed'),
    notice(tabId, site) {
      const tab = tabs.find((t) => t.tabId === tabId);
      if (tab && site !== undefined && site !== tab.site) leave(tabId, 'moved', site);
    },
    gone: (tabId, reason) => leave(tabId, reason),
    adopt(restored) {
      tabs = restored.filter((t) => t.tabId !== deps.ownTabId).slice(0, MAX_TASK_TABS);
      deps.onChange();
    },
    clear() {
      if (tabs.length === 0) return;
      tabs = [];
      deps.onChange();
    },
  };
}

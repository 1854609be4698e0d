import type { ReadonlySignal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import type { TabSnapshot } from '../../lib/messaging/agent-messages';
import type { OpenTab } from '../../lib/messaging/task-tabs';
import { hostOf } from '../../lib/shared/host-of';
import { webOriginOf } from '../../lib/shared/web-origin-of';

/** What the chooser reads and does through the panel's store (components/panel/create-task-slice.ts). */
export interface TaskTabsStore {
  tab: ReadonlySignal<TabSnapshot | undefined>;
  openTabs: ReadonlySignal<OpenTab[] | undefined>;
  listTabs(): void;
  addTaskTab(tabId: number): void;
  removeTaskTab(tabId: number): void;
}

/**
 * The tabs of this conversation's task (docs/security.md, "Tasks across tabs"): its own tab, always in; the tabs the
 * person added, each with Remove; and, on opening, the other open tabs with their site, title and tool count as the
 * host describes them, each with Add, or why it cannot be added. Titles are page text, shown as text.
 */
export function TaskTabsChooser({ store }: { store: TaskTabsStore }) {
  const tab = store.tab.value;
  const [open, setOpen] = useState(false);
  const added = tab?.taskTabs ?? [];
  const addedKey = added.map((t) => t.tabId).join();
  // The list is read when the person opens it and again whenever the task's tabs change (what is left to add).
  useEffect(() => {
    if (open) store.listTabs();
  }, [open, addedKey, tab?.tabId]);
  if (!tab) return null;
  const own = webOriginOf(tab.page?.url);
  const titleOf = (tabId: number) => store.openTabs.value?.find((t) => t.tabId === tabId)?.title;
  const choices = (store.openTabs.value ?? []).filter((t) => t.tabId !== tab.tabId && !added.some((a) => a.tabId === t.tabId));
  return (
    <details class="task-tabs" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>{added.length === 0 ? 'Tabs: this tab only' : `Tabs in this task: ${added.length + 1}`}</summary>
      <ul class="task-tab-list" aria-label="Tabs in this task">
        <li>
          <TabLabel site={own} title={tab.page?.title} />
          <span class="muted">This tab: always in</span>
        </li>
        {added.map((t) => (
          <li key={t.tabId}>
            <TabLabel site={t.site} title={titleOf(t.tabId)} />
            <button type="button" aria-label={`Remove ${hostOf(t.site)} from this task`} onClick={() => store.removeTaskTab(t.tabId)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <h3 class="task-tabs-heading">Other open tabs</h3>
      {store.openTabs.value === undefined ? (
        <p class="muted">Reading the open tabs…</p>
      ) : choices.length === 0 ? (
        <p class="muted">No other open tab to add.</p>
      ) : (
        <ul class="task-tab-list" aria-label="Other open tabs">
          {choices.map((t) => (
            <OpenTabRow key={t.tabId} tab={t} onAdd={store.addTaskTab} />
          ))}
        </ul>
      )}
      <button type="button" class="link" onClick={store.listTabs}>
        Refresh the list
      </button>
    </details>
  );
}

/** One open tab the person may add, or why not. */
function OpenTabRow({ tab, onAdd }: { tab: OpenTab; onAdd: (tabId: number) => void }) {
  const tools = tab.toolCount === 1 ? '1 tool' : `${tab.toolCount === 0 ? 'no' : tab.toolCount} tools`;
  if (!tab.site)
    return (
      <li>
        <TabLabel site={undefined} title={tab.title} />
        <span class="muted">Cannot be added: its site is not known (a page still loading, or a browser page).</span>
      </li>
    );
  return (
    <li>
      <TabLabel site={tab.site} title={tab.title} />
      <span class="muted">{tools}</span>
      <button
        type="button"
        aria-label={`Add ${hostOf(tab.site)}${tab.title ? ` (${tab.title})` : ''} to this task`}
        onClick={() => onAdd(tab.tabId)}
      >
        Add
      </button>
    </li>
  );
}

/** A tab's site and title: the title is the page's text, never markup. */
function TabLabel({ site, title }: { site: string | undefined; title: string | undefined }) {
  return (
    <span class="task-tab-label">
      <span class="task-tab-site">{site ? hostOf(site) : 'Unknown site'}</span>
      {title && <span class="task-tab-title">{title}</span>}
    </span>
  );
}

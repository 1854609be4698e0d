/**
 * A conversation's task across tabs (docs/security.md, "Tasks across tabs"), as its session holds it: the tabs the
 * person added (create-task-tabs.ts), the crossings allowed for the task (create-task-flows.ts), and for each added
 * tab its tool view and its calls (the same create-tab-tools.ts and create-tab-calls.ts as the session's own tab:
 * that tab's site profile, grants and policy apply there, and its calls run in that tab through the same bridge).
 * A run uses it through start-task-run.ts.
 */
import type { PendingConfirmation, ConfirmationAnswer } from '../messaging/agent-messages';
import type { TaskTab, TaskTabLeft } from '../messaging/task-tabs';
import type { CallTimeline } from '../call-log/call-timeline';
import { webOriginOf } from '../shared/web-origin-of';
import type { HostSettingsPort, HostRouterClient } from './agent-host-deps';
import type { LiveCalls } from './create-live-calls';
import type { RunGuard } from './create-run-guard';
import { createTabCalls } from './create-tab-calls';
import { createTabTools, type TabTools } from './create-tab-tools';
import type { TaskFlows } from './create-task-flows';
import { createTaskTabs, type TaskTabs } from './create-task-tabs';
import { restoreTaskTabs } from './restore-task-tabs';

/** Most notes of tabs that left the task the panel is shown (the newest). */
const MAX_LEFT_NOTES = 5;

/** An added tab as the task holds it. */
interface TaskMember {
  tab: TaskTab;
  tools: TabTools;
  calls: ReturnType<typeof createTabCalls>;
  /** The site the router names for the tab now; undefined while it names none. */
  site(): string | undefined;
}

interface TaskDeps {
  /** The conversation's own tab. */
  tabId: number;
  bridge: HostRouterClient;
  settings: HostSettingsPort;
  generateId: () => string;
  /** The conversation's timeline (tagged: tag-task-calls.ts). */
  timeline: CallTimeline;
  /** The conversation's live call states. */
  live: Pick<LiveCalls, 'set' | 'end'>;
  /** The origins whose data the conversation holds, and the note that it now holds another's. */
  sites: () => readonly string[];
  read: (origin: string) => void;
  flows: TaskFlows;
  /** The guard of the run going now for a tab of the task, if a run is going. */
  guardOf: (tabId: number) => RunGuard | undefined;
  /** The tab set changed: saved with the conversation. */
  saveTabs: (tabs: TaskTab[]) => void;
  /** What the panel shows changed. */
  emit: () => void;
}

/** A conversation's task across tabs. */
export interface Task {
  tabs: Pick<TaskTabs, 'list' | 'spans' | 'siteOf' | 'add' | 'remove' | 'gone'>;
  /** The added tabs still in the task, with their views and calls. */
  member(tabId: number): TaskMember | undefined;
  members(): TaskMember[];
  /** The notes of tabs that left the task, newest last. */
  left(): TaskTabLeft[];
  /** Checks the stored tab set against the router: only tabs still open on the same sites come back. */
  restore(stored: unknown): Promise<void>;
  /** The added tabs' open questions (agents' calls there). */
  questions(): PendingConfirmation[];
  confirm(confirmationId: string, answer: ConfirmationAnswer): void;
  reveal(confirmationId: string): string | undefined;
  /** The run ended: its questions in the added tabs end as stopped. */
  endRunQuestions(): void;
  /** The conversation ended (New chat): every added tab leaves silently and every allowed crossing is forgotten. */
  clear(): void;
  /** The session closes: stop following the added tabs. */
  close(): void;
}

/** Creates a conversation's task: at first its own tab alone. */
export function createTask(deps: TaskDeps): Task {
  const members = new Map<number, TaskMember>();
  let left: TaskTabLeft[] = [];
  const readSite = async (tabId: number) => webOriginOf((await deps.bridge.getTools(tabId)).page?.url);

  const join = (tab: TaskTab): TaskMember => {
    const site = () => webOriginOf(tools.page()?.url);
    const tools = createTabTools({
      tabId: tab.tabId,
      bridge: deps.bridge,
      settings: deps.settings,
      onChange: () => {
        // A tab that reached another site leaves the task; the run's guard for it refuses what was on its way.
        deps.guardOf(tab.tabId)?.notice(site());
        taskTabs.notice(tab.tabId, site());
        // A tab whose page crashed leaves too: it names no site, but unlike a page loading it will not name one.
        if (tools.crashed()) taskTabs.gone(tab.tabId, 'crashed');
        deps.emit();
      },
    });
    const calls = createTabCalls({
      tabId: tab.tabId,
      bridge: deps.bridge,
      settings: deps.settings,
      generateId: deps.generateId,
      tools,
      timeline: deps.timeline,
      guard: () => deps.guardOf(tab.tabId),
      sites: deps.sites,
      read: deps.read,
      currentSite: site,
      live: deps.live,
      emit: deps.emit,
      allowFlows: (flows) => deps.flows.allow(flows),
    });
    void tools.refresh();
    return { tab, tools, calls, site };
  };

  /** Follows exactly the tabs in the set: a new one is joined, one that left is let go (its questions end). */
  const sync = () => {
    const listed = taskTabs.list();
    for (const tab of listed) if (!members.has(tab.tabId)) members.set(tab.tabId, join(tab));
    for (const [tabId, member] of members) {
      if (listed.some((t) => t.tabId === tabId)) continue;
      members.delete(tabId);
      member.calls.endRunQuestions();
      member.tools.close();
    }
  };

  const taskTabs = createTaskTabs({
    ownTabId: deps.tabId,
    siteOf: readSite,
    onChange: () => {
      sync();
      deps.saveTabs(taskTabs.list());
      deps.emit();
    },
    onLeft: (note) => {
      left = [...left, note].slice(-MAX_LEFT_NOTES);
    },
  });

  return {
    tabs: taskTabs,
    member: (tabId) => members.get(tabId),
    members: () => [...members.values()],
    left: () => left,
    async restore(stored) {
      const { kept, dropped } = await restoreTaskTabs(stored, readSite);
      left = [...left, ...dropped].slice(-MAX_LEFT_NOTES);
      if (kept.length > 0 || dropped.length > 0) taskTabs.adopt(kept);
    },
    questions: () => [...members.values()].flatMap((m) => m.calls.questions()),
    confirm(confirmationId, answer) {
      for (const m of members.values()) m.calls.confirm(confirmationId, answer);
    },
    reveal: (confirmationId) => [...members.values()].map((m) => m.calls.reveal(confirmationId)).find((r) => r !== undefined),
    endRunQuestions() {
      for (const m of members.values()) m.calls.endRunQuestions();
    },
    clear() {
      deps.flows.clear();
      left = [];
      taskTabs.clear();
    },
    close() {
      for (const m of members.values()) m.tools.close();
      members.clear();
    },
  };
}

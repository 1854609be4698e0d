import { initialRunState } from '../agent/reduce-stream-part';
import { createToolNames } from '../agent/site-tool-names';
import type { AgentAdapter, AgentMessage } from '../agent/types';
import type { CallTimeline } from '../call-log/call-timeline';
import type { SecretPath } from '../transcript/secret-paths-of';
import type { LiveCalls } from './create-live-calls';
import { createRunGuard, type RunGuard } from './create-run-guard';
import type { TabCalls } from './create-tab-calls';
import type { TabConversation } from './create-tab-conversation';
import type { TabTools } from './create-tab-tools';
import type { Task } from './create-task';
import type { TaskFlows } from './create-task-flows';
import { runAdapter } from './run-adapter';
import { runOutcomeOf } from './run-outcome-of';
import { startTaskRun, type TaskRun } from './start-task-run';
import type { TaskCallRoute } from './tag-task-calls';

/** Why a run (Retry) did not start: nobody knows yet which site the tab shows. */
export const SITE_UNKNOWN_RUN_ERROR =
  'Nothing ran: the tab’s site is not known yet (its page may still be loading), and what this conversation holds goes only to a site the agent knows. Press Retry once the page has loaded.';

/** How long an adapter may take to wind down after Stop before the host stops listening to it. */
const STOP_GRACE_MS = 3000;

/** What a tab's runs read and change of its session. */
interface TabRunsDeps {
  tabId: number;
  conversation: TabConversation;
  tools: Pick<TabTools, 'refresh' | 'agent' | 'forModel' | 'page' | 'identity'>;
  calls: Pick<TabCalls, 'callTool' | 'endRunQuestions'>;
  task: Task;
  /** The crossings the person allowed for this conversation's task. */
  flows: TaskFlows;
  /** The conversation's timeline, tagged with where each call of a run across tabs went. */
  timeline: CallTimeline;
  live: Pick<LiveCalls, 'forget' | 'clear'>;
  /** The adapter chosen now, or why there is none. */
  adapter: () => Promise<AgentAdapter | { unavailable: string }>;
  /** The top-level site the tab shows now, as the router names it. */
  currentSite: () => string | undefined;
  /** A call's secret paths (run-adapter.ts). */
  secretPathsFor: (call: { id: string; name: string }) => readonly SecretPath[];
  /** What the panel shows changed (batched). */
  emit: () => void;
  /** What the panel shows changed, told at once: a run ended. */
  emitNow: () => void;
}

/** A tab's runs, one after the other: the adapter over the conversation, under a run guard, maybe across tabs. */
export interface TabRuns {
  /**
   * Runs the adapter over `messages` once the run before has ended. `typedOn`: the site the person's message was
   * typed on (send checked the tab shows it); a run without one (Retry) belongs to the site the tab shows when it
   * starts, and does not start while that is not known.
   */
  run(messages: AgentMessage[], typedOn?: string): Promise<void>;
  /** Stops the run going now, if any. */
  abort(): void;
  /** Resolves when the last run started has ended and been saved. */
  idle(): Promise<void>;
  /** The rules of the run going now (create-run-guard.ts). */
  guard(): RunGuard | undefined;
  /** The run's guard for an added tab of the task, while a run across tabs goes. */
  guardOf(tabId: number): RunGuard | undefined;
  /** Where a call of a run across tabs went: the timeline records its tab and site (tag-task-calls.ts). */
  routeOf(callId: string): TaskCallRoute | undefined;
}

/** Creates a tab's runs. */
export function createTabRuns(deps: TabRunsDeps): TabRuns {
  const { conversation, tools, calls, task, flows, emit } = deps;
  let controller: AbortController | undefined;
  let current: Promise<void> = Promise.resolve();
  /** The rules of the run going now. */
  let guard: RunGuard | undefined;
  /** The run across the task's tabs going now, when the run spans tabs. */
  let taskRun: TaskRun | undefined;
  const routes = new Map<string, TaskCallRoute>();
  /** The names of pooled tools while this session lasts: a name never stands for another tab, site or frame. */
  const names = createToolNames();

  /** The run could not start: nobody knows which site it would belong to. */
  const refuseUnknownSite = async () => {
    conversation.running = false;
    controller = undefined;
    conversation.lastRun = { reason: 'error', error: SITE_UNKNOWN_RUN_ERROR };
    deps.emitNow();
    await conversation.flush();
  };

  /** Everything of a run that ended goes, and how it ended is said and saved. */
  const end = async (outcome: ReturnType<typeof runOutcomeOf>, across: TaskRun | undefined) => {
    calls.endRunQuestions();
    across?.end();
    taskRun = undefined;
    deps.live.clear();
    conversation.running = false;
    controller = undefined;
    guard = undefined;
    conversation.lastRun = outcome;
    deps.emitNow();
    await conversation.flush();
  };

  const runOnce = async (messages: AgentMessage[], typedOn: string | undefined) => {
    const own = new AbortController();
    controller = own;
    conversation.messages = messages;
    conversation.lastRun = undefined;
    conversation.running = true;
    emit();
    await tools.refresh();
    // The run belongs to the site it starts on; the conversation now holds that site's data too.
    const site = typedOn ?? deps.currentSite();
    if (site === undefined) return refuseUnknownSite();
    if (!conversation.sites.includes(site)) conversation.sites = [...conversation.sites, site];
    const runAgent = tools.agent();
    const runGuard = createRunGuard({ site, agent: runAgent, stop: () => own.abort(), task: { flows, offer: () => task.tabs.spans() } });
    guard = runGuard;
    // A task of several tabs when the run starts: the run offers every tab's tools and routes each call to its tab.
    const across = startTaskRun({
      task,
      flows,
      names,
      routes,
      timeline: deps.timeline,
      own: {
        tabId: deps.tabId,
        site,
        tools,
        guard: runGuard,
        agent: runAgent,
        callTool: (call, signal, from) => calls.callTool(call, signal, from),
      },
    });
    taskRun = across;
    // The tab may have moved since send looked: the run then ends before the model (or another site's profile)
    // hears anything of it.
    runGuard.notice(deps.currentSite());
    const ended = runGuard.crossed()
      ? initialRunState(messages)
      : await runAdapter({
          conversation: messages,
          adapter: deps.adapter,
          signal: own.signal,
          graceMs: STOP_GRACE_MS,
          // While the tab is not known to show the run's site, no page's tools are this run's.
          tools: () => (runGuard.onSite() ? (across ? across.tools() : tools.forModel()) : []),
          callTool: (call, agentPath) =>
            across
              ? across.callTool(call, own.signal, agentPath)
              : calls.callTool(call, own.signal, { by: 'agent', ...(agentPath ? { agentPath } : {}) }),
          agent: across ? across.agent : runAgent,
          page: () => tools.page(),
          site,
          secretPathsFor: deps.secretPathsFor,
          onPart: (folded, settled) => {
            conversation.messages = folded.messages;
            if (settled !== undefined) deps.live.forget(settled);
            conversation.save();
            emit();
          },
        });
    await end(runOutcomeOf(ended, runGuard.crossed()), across);
  };

  return {
    run(messages, typedOn) {
      const previous = current;
      current = previous.then(() => runOnce(messages, typedOn));
      return current;
    },
    abort: () => controller?.abort(),
    idle: () => current,
    guard: () => guard,
    guardOf: (tabId) => taskRun?.guardOf(tabId),
    routeOf: (callId) => routes.get(callId),
  };
}

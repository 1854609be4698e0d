/**
 * One run of a conversation whose task spans tabs (docs/security.md, "Tasks across tabs"): the model is offered the
 * tools of every tab in the task under site-qualified names (lib/agent/pool-task-tools.ts), each tab's own site profile
 * choosing its tools; a call resolves its name to the exact tab and tool it was listed under and runs in that tab,
 * under that tab's run guard (its site, its profile) and the conversation's boundary (the origins it holds, the
 * crossings allowed for the task). Whether a run spans tabs is decided when it starts: a tab added meanwhile joins
 * the next run, and a tab that leaves takes its tools out of the next step.
 */
import { MAX_DELEGATION_DEPTH, selectTools } from '../agent/select-tools';
import type { ToolNames } from '../agent/site-tool-names';
import { toolErrorOutput } from '../agent/tool-error-output';
import type { ToolCall, ToolOutput, WebAgent } from '../agent/types';
import type { CallTimeline } from '../call-log/call-timeline';
import { MAX_CALL_TITLE } from '../messaging/call-record';
import { cleanPageText } from '../page-data/clean-page-text';
import { hostOf } from '../shared/host-of';
import type { CallOrigin } from './call-page-tool';
import { createRunGuard, type RunGuard } from './create-run-guard';
import type { TabTools } from './create-tab-tools';
import type { Task } from './create-task';
import type { TaskFlows } from './create-task-flows';
import { type PooledTools, poolTaskTools, type TaskTabTools } from '../agent/pool-task-tools';
import type { TaskCallRoute } from './tag-task-calls';

interface TaskRunDeps {
  task: Pick<Task, 'tabs' | 'member' | 'members' | 'endRunQuestions'>;
  flows: TaskFlows;
  /** The conversation's names for pooled tools (one registry while the conversation lasts). */
  names: Pick<ToolNames, 'nameOf'>;
  /** Where each routed call went, for the timeline (tag-task-calls.ts). */
  routes: Map<string, TaskCallRoute>;
  timeline: Pick<CallTimeline, 'start'>;
  /** The conversation's own tab: the run's site, its guard, its profile and its calls. */
  own: {
    tabId: number;
    site: string;
    tools: Pick<TabTools, 'forModel' | 'identity' | 'page'>;
    guard: Pick<RunGuard, 'onSite'>;
    agent: WebAgent | undefined;
    callTool: (call: ToolCall, signal: AbortSignal, from: CallOrigin) => Promise<ToolOutput>;
  };
}

/** A run across the task's tabs. */
export interface TaskRun {
  /** The agent the adapter is given: the own site's instructions; tools are chosen per tab, and no sub-agents. */
  agent: WebAgent | undefined;
  /** The pooled tools for the next model step. */
  tools(): ReturnType<typeof poolTaskTools>['tools'];
  /** Runs an agent's call in the tab its name was listed under. Never rejects. */
  callTool(call: ToolCall, signal: AbortSignal, agentPath?: readonly string[]): Promise<ToolOutput>;
  /** The run's guard for an added tab of the task (created on first use). */
  guardOf(tabId: number): RunGuard | undefined;
  /** The run ended. */
  end(): void;
}

/**
 * Starts a run across the task's tabs, or returns undefined when the task holds only its own tab (the run then
 * goes exactly as in a conversation of one tab).
 */
export function startTaskRun(deps: TaskRunDeps): TaskRun | undefined {
  const { task, own } = deps;
  if (!task.tabs.spans()) return undefined;
  const guards = new Map<number, RunGuard>();
  let pool: PooledTools | undefined;

  const guardOf = (tabId: number) => {
    const member = task.member(tabId);
    if (!member) return undefined;
    let guard = guards.get(tabId);
    if (!guard) {
      // Each tab's own site and profile; a tab that moves leaves the task, which does not end the run.
      guard = createRunGuard({
        site: member.tab.site,
        agent: member.tools.agent(),
        stop: () => {},
        task: { flows: deps.flows, offer: () => true },
      });
      guard.notice(member.site());
      guards.set(tabId, guard);
    }
    return guard;
  };

  const tabTools = (): TaskTabTools[] => [
    { tabId: own.tabId, site: own.site, page: own.tools.page(), tools: own.guard.onSite() ? rootTools(own.agent, own.tools) : [] },
    ...task.members().map((m) => ({
      tabId: m.tab.tabId,
      site: m.tab.site,
      page: m.tools.page(),
      // While the tab is not known to show the site it was added on (a page loading), none of its tools.
      tools: guardOf(m.tab.tabId)?.onSite() ? rootTools(m.tools.agent(), m.tools) : [],
    })),
  ];

  const refuse = (call: ToolCall, output: ToolOutput) => {
    deps.timeline.start({ id: call.id, by: 'agent', tool: call.name, input: call.input }).end(output);
    return output;
  };

  return {
    agent: own.agent ? { ...own.agent, tools: undefined, subAgents: undefined } : undefined,
    tools() {
      pool = poolTaskTools(tabTools(), deps.names);
      return pool.tools;
    },
    async callTool(call, signal, agentPath = []) {
      const target = agentPath.length === 0 ? pool?.resolve(call.name) : undefined;
      if (!target) {
        const offered = pool?.tools.map((t) => t.name).join(', ') || 'none';
        const name = String(call.name).replace(/\s+/g, ' ').slice(0, 64);
        return refuse(call, toolErrorOutput('unknown_tool', `no tool named "${name}" is offered to you. Available tools: ${offered}.`));
      }
      const member = task.member(target.tabId);
      // The tab left the task since the tool was listed (it moved, closed, or the person removed it).
      if (target.tabId !== own.tabId && (!member || member.tab.site !== target.site)) {
        return refuse(call, toolErrorOutput('tool_changed', `${hostOf(target.site)} left the task, so nothing was run there.`));
      }
      // The page's title as the call starts there: its card keeps it, whatever the tab shows later.
      const title = cleanPageText((member ? member.tools.page() : own.tools.page())?.title, { oneLine: true, max: MAX_CALL_TITLE });
      deps.routes.set(call.id, { name: call.name, tabId: target.tabId, site: target.site, ...(title ? { title } : {}) });
      const local = { ...call, name: target.tool };
      try {
        return await (member ? member.calls.callTool(local, signal, { by: 'agent' }) : own.callTool(local, signal, { by: 'agent' }));
      } finally {
        deps.routes.delete(call.id);
      }
    },
    guardOf: (tabId) => guardOf(tabId),
    end() {
      task.endRunQuestions();
      guards.clear();
    },
  };
}

/**
 * The tools a tab's site profile offers its own agent (no sub-agents' and no delegate tools: delegation stays
 * within one tab's conversation), each with its frame's origin.
 */
function rootTools(agent: WebAgent | undefined, tools: Pick<TabTools, 'forModel' | 'identity'>): TaskTabTools['tools'] {
  return selectTools(agent, tools.forModel(), MAX_DELEGATION_DEPTH).map((t) => {
    const origin = tools.identity(t.name)?.origin;
    return origin ? { ...t, origin } : t;
  });
}

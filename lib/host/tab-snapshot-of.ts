import type { TabSnapshot } from '../messaging/agent-messages';
import type { TabParts } from './create-tab-parts';

/** Everything a panel renders for the tab now, read from its session's parts. */
export function tabSnapshotOf(tabId: number, parts: Pick<TabParts, 'conversation' | 'live' | 'calls' | 'task' | 'tabTools'>): TabSnapshot {
  const { conversation, live, calls, task, tabTools } = parts;
  return {
    tabId,
    messages: live.over(conversation.messages),
    running: conversation.running,
    ...(conversation.lastRun ? { lastRun: conversation.lastRun } : {}),
    confirmations: [...calls.questions(), ...task.questions()],
    tools: tabTools.forPanel(),
    toolsKnown: tabTools.known(),
    ...(tabTools.dropped()?.length ? { toolsDropped: tabTools.dropped() } : {}),
    ...(tabTools.limits()?.length ? { pageLimits: tabTools.limits() } : {}),
    ...(tabTools.page() ? { page: tabTools.page() } : {}),
    ...(conversation.sites.length > 0 ? { sites: conversation.sites } : {}),
    ...(task.tabs.spans() ? { taskTabs: task.tabs.list() } : {}),
    ...(task.left().length > 0 ? { taskLeft: task.left() } : {}),
  };
}

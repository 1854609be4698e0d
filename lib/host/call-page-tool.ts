import type { ToolCall, ToolOutput } from '../agent/types';
import { validateArgs } from '../agent/validate-args';
import type { CallInProgress, CallTimeline } from '../call-log/call-timeline';
import type { CallRecord } from '../messaging/call-record';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { IN_BROWSER_AGENT } from '../storage/grant-caller';
import { secretPathsOf } from '../transcript/secret-paths-of';
import { toolErrorOutput } from '../agent/tool-error-output';
import type { ConfirmationFlow } from './create-confirmation-flow';
import type { RunGuard } from './create-run-guard';
import type { TabTools } from './create-tab-tools';

/** Who made a call, and for an agent's call which agent (the sub-agents' ids from the site's agent down). */
export interface CallOrigin {
  by: CallRecord['by'];
  requestId?: string;
  agentPath?: readonly string[];
}

interface PageToolCallDeps {
  tools: Pick<TabTools, 'find' | 'all' | 'identity' | 'names' | 'page'>;
  /** Waits until the tab's tool view shows the latest the router told of (TabTools.current: no look of its own). */
  currentTools: () => Promise<void>;
  /** Waits for the page to offer a tool it does not offer yet, showing the person what for. */
  waitForTool: (call: ToolCall, signal: AbortSignal) => Promise<TabToolEntry | undefined>;
  /** Waits a moment for the router to name the tab's page (one that is loading), showing the person what for. */
  waitForPage: (call: ToolCall, signal: AbortSignal) => Promise<void>;
  /** The rules of the agent's run going now, read when the call starts (a call by hand has none). */
  guard: () => RunGuard | undefined;
  /** The origins whose data the conversation holds (its runs' top sites, the frames whose results it read). */
  sites: () => readonly string[];
  /** The conversation now holds what a tool of this origin (its frame's) returned. */
  read: (origin: string) => void;
  timeline: Pick<CallTimeline, 'start'>;
  confirmations: Pick<ConfirmationFlow, 'check'>;
  /** Runs the allowed call on the page (run-on-page.ts). */
  runOnPage: (call: ToolCall, tool: TabToolEntry, signal: AbortSignal, record: CallInProgress) => Promise<ToolOutput>;
}

/**
 * Runs an agent's call, or the person's by hand, on the tab: refused before the page or the person hears of it when
 * the calling agent was not offered the tool or the run's tab left its site; waited for when the page does not offer
 * it yet; judged by the confirmation policy (with the run's rules); then run on the page and recorded in the timeline.
 *
 * @param call The call as the adapter (or the inspector) made it.
 * @param signal Stop.
 * @param from Who made it.
 * @returns The output the model reads (never rejects: refusals are `Error [code]` outputs).
 */
export async function callPageTool(call: ToolCall, signal: AbortSignal, from: CallOrigin, deps: PageToolCallDeps): Promise<ToolOutput> {
  const { tools } = deps;
  // The tools as the router last pushed them, read from the tab's view (no look, lib/host/create-tab-tools.ts). The
  // policy judges this instance, and the router runs nothing else (expectedToolOf in run-on-page.ts), however the
  // page changed since.
  await deps.currentTools();
  const runGuard = from.by === 'agent' ? deps.guard() : undefined;
  // The tab's site is not known right now (its page is loading): it decides what may run, so wait a moment for the
  // router to name it. Still not known then, the call is refused like one for another site.
  if (runGuard && !runGuard.onSite() && !runGuard.crossed()) await deps.waitForPage(call, signal);
  // A name the calling agent was not offered, or a run whose tab left its site, ends here: no page, no question.
  let refusal = runGuard?.refuse(call, from.agentPath ?? [], tools.all());
  // Not there: wait for the page to offer it (a route's tools often arrive just after the call that changed it).
  let tool = refusal ? undefined : (tools.find(call.name) ?? (await deps.waitForTool(call, signal)));
  // What arrived meanwhile may be another site's page: the tool that came with it is not this run's.
  refusal ??= runGuard?.refuse(call, from.agentPath ?? [], tools.all());
  if (refusal) tool = undefined;
  const record = deps.timeline.start({
    id: call.id,
    by: from.by,
    tool: call.name,
    input: call.input,
    ...(from.requestId ? { requestId: from.requestId } : {}),
    ...(tool ? { origin: tool.origin, frameId: tool.frameId, secretPaths: secretPathsOf(tool.inputSchema) } : {}),
  });
  const output = refusal ?? (await policyAndRun(call, tool, signal, record, runGuard, deps));
  record.end(output);
  return output;
}

async function policyAndRun(
  call: ToolCall,
  tool: TabToolEntry | undefined,
  signal: AbortSignal,
  record: CallInProgress,
  runGuard: RunGuard | undefined,
  deps: PageToolCallDeps,
): Promise<ToolOutput> {
  const identity = deps.tools.identity(call.name);
  if (!tool || !identity) {
    // Nothing the policy could judge runs: a tool that appears only after this check would skip the question.
    const names = deps.tools.names().join(', ') || 'none';
    return toolErrorOutput('unknown_tool', `No tool named "${call.name}" on this page. Available tools: ${names}.`);
  }
  if (runGuard) {
    // Adapters check arguments before calling; a name that arrived late (cloud) was not checked: check here.
    const verdict = validateArgs(tool.inputSchema, call.input);
    if (!verdict.ok) return toolErrorOutput('invalid_input', verdict.message);
  }
  const allowed = await deps.confirmations.check(call, tool, identity, {
    // The top page as the router names it, or none: never a URL from before, which may be another site's.
    top: deps.tools.page()?.url,
    signal,
    awaiting: () => record.awaiting(),
    // The agent's, its sub-agents' and the person's calls by hand are all asked in the panel: one caller for grants.
    caller: IN_BROWSER_AGENT,
    ...(runGuard ? { force: runGuard.mustAsk(identity, deps.sites()) } : {}),
  });
  if (allowed !== 'run') return allowed;
  // The person may have answered after the tab left the run's site: nothing of the new site runs for this run.
  const left = runGuard?.leftSite();
  if (left) return left;
  const output = await deps.runOnPage(call, tool, signal, record);
  if (!runGuard) return output;
  // The model reads what the tool's own frame returned: from now on a call to any other origin's tool asks. A tool
  // that names no frame is the top page's, whose site the run already counts.
  if (identity.origin) deps.read(identity.origin);
  return runGuard.settle(tool, identity, output);
}

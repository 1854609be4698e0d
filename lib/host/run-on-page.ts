import type { ToolCall, ToolOutput } from '../agent/types';
import { expectedToolOf } from '../messaging/expected-tool';
import type { CallInProgress } from '../call-log/call-timeline';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import type { HostRouterClient } from './agent-host-deps';
import type { LiveCall } from './apply-live-calls';

interface RunOnPageDeps {
  tabId: number;
  bridge: Pick<HostRouterClient, 'callTool'>;
  /** Waits until the tab's tool view shows the latest the router told of (TabTools.current: no look of its own). */
  currentTools: () => Promise<void>;
  /** Shows the call's live state (running, or parked on a control the person must click) on its card. */
  setLive: (callId: string, call: LiveCall) => void;
}

/**
 * Runs a call the policy allowed on the page, bound to the tool instance that was judged (and shown to the person):
 * the router refuses to run anything else under the name. The call's card and timeline record follow it; it ends
 * once the tab's tool view shows the tools the call left, since a call often changes them (a product page adds
 * add_to_cart) and the adapter reads them right away.
 *
 * @param call The call, as the agent, the person or a desktop agent made it.
 * @param tool The snapshot entry the policy judged.
 * @param signal Stop: the page hears toolcancel.
 * @param record The call's timeline record.
 * @returns The page's output (never rejects: failures are `Error [code]` outputs).
 */
export async function runOnPage(
  call: ToolCall,
  tool: TabToolEntry,
  signal: AbortSignal,
  record: CallInProgress,
  deps: RunOnPageDeps,
): Promise<ToolOutput> {
  deps.setLive(call.id, { state: 'running' });
  record.running();
  const output = await deps.bridge.callTool(deps.tabId, call, {
    signal,
    // The instance judged (and shown to the person) is the one that may run: the router refuses any other.
    expect: expectedToolOf(tool, call),
    onState: (update) => deps.setLive(call.id, { state: update.state, prompt: update.prompt }),
  });
  // A call often changes the page's tools (a product page adds add_to_cart). The call's answer carried the tools
  // after it, and the bridge told the view before the answer came back; the adapter reads req.tools right away:
  // wait for the view's look at them (none when the call changed nothing).
  await deps.currentTools();
  return output;
}

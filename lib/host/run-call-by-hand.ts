import type { ToolCall, ToolOutput } from '../agent/types';
import { validateArgs } from '../agent/validate-args';
import type { CallTimeline } from '../call-log/call-timeline';
import { secretPathsOf } from '../transcript/secret-paths-of';
import { toolErrorOutput } from '../agent/tool-error-output';
import type { CallOrigin } from './call-page-tool';
import type { TabTools } from './create-tab-tools';

interface HandCallDeps {
  tools: Pick<TabTools, 'offered'>;
  timeline: Pick<CallTimeline, 'start'>;
  /** Runs the call as the person's, through the confirmation policy (call-page-tool.ts). */
  callTool: (call: ToolCall, signal: AbortSignal, from: CallOrigin) => Promise<ToolOutput>;
  /** The person's calls running now: Stop aborts them. */
  handRuns: Set<AbortController>;
  /** The call is over: its live state goes. */
  settled: (callId: string) => void;
}

/**
 * Runs one tool by hand (the inspector): a name the page's agent does not offer, or arguments its schema refuses,
 * only leave a refused record in the timeline; anything else goes through the same policy, bridge and cursor as an
 * agent's call, and Stop reaches it.
 *
 * @param call The call, with the host's own id.
 * @param requestId The panel's id for the call, to find it in the timeline.
 */
export async function runCallByHand(call: ToolCall, requestId: string, deps: HandCallDeps): Promise<void> {
  const tool = deps.tools.offered(call.name);
  const refusal = !tool
    ? toolErrorOutput('unknown_tool', `no tool is named "${call.name}" on this page now.`)
    : (() => {
        const verdict = validateArgs(tool.inputSchema, call.input);
        return verdict.ok ? undefined : toolErrorOutput('invalid_input', verdict.message);
      })();
  if (refusal) {
    deps.timeline
      .start({
        id: call.id,
        by: 'person',
        tool: call.name,
        input: call.input,
        requestId,
        ...(tool ? { origin: tool.origin, frameId: tool.frameId, secretPaths: secretPathsOf(tool.inputSchema) } : {}),
      })
      .end(refusal);
    return;
  }
  const own = new AbortController();
  deps.handRuns.add(own);
  try {
    await deps.callTool(call, own.signal, { by: 'person', requestId });
  } finally {
    deps.handRuns.delete(own);
    deps.settled(call.id);
  }
}

import type { ToolCall, ToolOutput } from '../agent/types';
import { isDebuggingTool } from '../agent/is-debugging-tool';
import { validateArgs } from '../agent/validate-args';
import type { CallInProgress, CallTimeline } from '../call-log/call-timeline';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { hostOf } from '../shared/host-of';
import { desktopCaller } from '../storage/grant-caller';
import { secretPathsOf } from '../transcript/secret-paths-of';
import { toolErrorOutput } from '../agent/tool-error-output';
import type { ConfirmationFlow } from './create-confirmation-flow';
import type { ClientCallRequest } from '../messaging/client-call-request';
import type { TabTools } from './create-tab-tools';

interface ClientCallDeps {
  tools: Pick<TabTools, 'find' | 'identity' | 'page'>;
  /** The top-level site the tab shows now. */
  currentSite: () => string | undefined;
  timeline: Pick<CallTimeline, 'start'>;
  /** The desktop agents' own questions (an agent run's end does not answer them). */
  confirmations: Pick<ConfirmationFlow, 'check'>;
  /** Runs the allowed call on the page (run-on-page.ts). */
  runOnPage: (call: ToolCall, tool: TabToolEntry, signal: AbortSignal, record: CallInProgress) => Promise<ToolOutput>;
  /** The call's run on the page is over: its live state goes. */
  settled: (callId: string) => void;
}

/**
 * Runs a call a desktop agent made through the MCP bridge the way an agent's runs: nothing runs once the tab no
 * longer shows the site the tool was shared from (checked again after the person answered), the tool must still be
 * on the page, its arguments are checked, and the confirmation policy asks in the client's name; then the call runs
 * on the page. The timeline marks it with the client, refused or not.
 *
 * @param call The call, with the page's own model-facing tool name.
 * @param request Who made it, for which site, and how to ask.
 * @returns The output the client gets, and `ran`: whether the call reached the page.
 */
export async function runClientCall(
  call: ToolCall,
  request: ClientCallRequest,
  deps: ClientCallDeps,
): Promise<{ output: ToolOutput; ran: boolean }> {
  const tool = deps.tools.find(call.name);
  const identity = deps.tools.identity(call.name);
  const record = deps.timeline.start({
    id: call.id,
    by: 'client',
    client: request.client,
    tool: call.name,
    input: call.input,
    // Masked as the agent's calls are: the timeline, its Copy and every view never show what the schema marks secret.
    ...(tool ? { origin: tool.origin, frameId: tool.frameId, secretPaths: secretPathsOf(tool.inputSchema) } : {}),
  });
  const refused = (output: ToolOutput) => {
    record.end(output);
    return { output, ran: false };
  };
  const moved = () => {
    const now = deps.currentSite();
    return now === request.site
      ? undefined
      : toolErrorOutput(
          'tool_changed',
          `the tab is on ${now ? hostOf(now) : 'another page'} now, not ${hostOf(request.site)} where this tool was shared. Nothing was run. List the tools again.`,
        );
  };
  const away = moved();
  if (away) return refused(away);
  // A debugging tool is never a desktop agent's, even called by a name it guessed or kept (docs/security.md).
  if (!tool || !identity || !isShown(tool, request.shown) || isDebuggingTool(tool))
    return refused(toolErrorOutput('unknown_tool', `The page no longer offers ${call.name}. List the tools again.`));
  const verdict = validateArgs(tool.inputSchema, call.input);
  if (!verdict.ok) return refused(toolErrorOutput('invalid_input', verdict.message));
  const allowed = await deps.confirmations.check(call, tool, identity, {
    // The top page as the router names it, or none: never a URL from before, which may be another site's.
    top: deps.tools.page()?.url,
    signal: request.signal,
    awaiting: () => {
      record.awaiting();
      request.onAsking?.();
    },
    requester: request.client,
    // Grants are this client's own, by the name it gives; a client with no name gets none (grant-caller.ts).
    caller: desktopCaller(request.client),
    ...(request.force ? { force: request.force } : {}),
  });
  if (allowed !== 'run') return refused(allowed);
  // The person may have answered after the tab left the site: nothing of another site runs for this call.
  const left = moved();
  if (left) return refused(left);
  try {
    const output = await deps.runOnPage(call, tool, request.signal, record);
    record.end(output);
    return { output, ran: true };
  } finally {
    deps.settled(call.id);
  }
}

/** Whether `tool` is the instance the client was shown (any instance when none was named). */
function isShown(tool: TabToolEntry, shown: ClientCallRequest['shown']): boolean {
  return (
    !shown ||
    (tool.frameId === shown.frameId &&
      tool.documentId === shown.documentId &&
      tool.origin === shown.origin &&
      tool.originalName === shown.originalName)
  );
}

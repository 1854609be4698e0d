/**
 * tools/call: only a name from the list, and only while its tab still shows its site and the site is still shared,
 * and only the tool instance listed. It runs through the tab's session (runForClient): argument validation, the
 * confirmation policy asked in the panel in the client's name (a notification when no panel shows the tab), the
 * router, cursor and caps; the result comes back spotlighted in the client's own delimiter (to-mcp-result.ts), and
 * only while the tab still shows the shared site. A refusal says only that no such tool is shared (client-refusals.ts).
 * It answers the client's `tools/call` ask on its line (native-client-handlers.ts), which posts the reply.
 */
import { parseToolError } from '../agent/tool-error-codes';
import type { ToolCall, ToolOutput } from '../agent/types';
import type { BridgeBrowser } from '../messaging/mcp-bridge-messages';
import type { ClientCallRequest } from '../messaging/client-call-request';
import type { BridgeCallResult } from '../messaging/mcp-bridge-messages';
import { webOriginOf } from '../shared/web-origin-of';
import { LEFT_SHARED_SITE_ERROR, NOT_SHARED_ERROR, refusalOutput } from './client-refusals';
import type { DesktopClient } from './create-client-registry';
import { frameOriginOf, type SharedTool, whereOf } from './shared-tool';
import type { SharingChoices } from './sharing-choices';
import { toMcpError, toMcpResult } from './to-mcp-result';

/** Refusals a client may hear as they are: they name only the tool it called and its arguments. */
const PLAIN_REFUSALS = new Set(['invalid_input', 'cancelled']);
/** Codes with which the router refused to run a call (the tool changed under its name): no reply names the change. */
const NOT_RUN_CODES = new Set(['tool_changed', 'unknown_tool']);

/** What a tab's session does for a desktop agent (TabSession.runForClient). */
export interface ClientSession {
  runForClient(call: ToolCall, request: ClientCallRequest): Promise<{ output: ToolOutput; ran: boolean }>;
}

interface CallSharedToolDeps {
  /** The shared tools now, by name (list-shared-tools.ts). */
  listing(): Promise<Map<string, SharedTool>>;
  /** The tab's session (created on first use). */
  session(tabId: number): Promise<ClientSession>;
  browser: Pick<BridgeBrowser, 'tabs' | 'notify' | 'clearNotification'>;
  choices: Pick<SharingChoices, 'enabled' | 'isShared'>;
  /** Whether a panel shows this tab now (it shows the question; no notification is needed). */
  watched(tabId: number): boolean;
  generateId(): string;
}

/** What the line gives a running call (lib/mcp-bridge/native-client-handlers.ts): its cancel, and the client's ear. */
export interface SharedCallContext {
  /** Aborts when the client cancels or its line closes (the reason says which). */
  signal: AbortSignal;
  /** Tells the client the call waits for the person (`tools/waiting` on the bridge's wire). */
  waiting(message: string): void;
}

/** Runs one call of `client` and gives its reply's result. */
export async function callSharedTool(
  deps: CallSharedToolDeps,
  client: DesktopClient,
  name: string,
  input: Record<string, unknown>,
  context: SharedCallContext,
): Promise<BridgeCallResult> {
  const tool = (await deps.listing()).get(name);
  if (!tool) return toMcpError(refusalOutput(NOT_SHARED_ERROR));
  // The client's cancel and its line's close come through the line's signal; the person's stop (sharing-intents.ts)
  // and a client dropped from the registry through the controller.
  const controller = new AbortController();
  const onAbort = () => controller.abort(context.signal.reason);
  if (context.signal.aborted) onAbort();
  else context.signal.addEventListener('abort', onAbort, { once: true });
  const callId = `mcp-${deps.generateId()}`;
  client.calls.set(callId, { controller, site: tool.site, tabId: tool.tabId });
  // Judged by the frame that owns the tool: what the client read on any other origin (the site around a frame
  // included) makes the call ask, whatever its annotations say.
  const identity = { origin: frameOriginOf(tool.entry), originalName: tool.entry.originalName };
  const force = client.guard.mustAsk(identity, [...client.read]);
  const { frameId, documentId, origin, originalName } = tool.entry;
  try {
    const session = await deps.session(tool.tabId);
    const { output, ran } = await session.runForClient(
      { id: callId, name: tool.entry.name, input },
      {
        client: client.name,
        site: tool.site,
        signal: controller.signal,
        ...(force ? { force } : {}),
        shown: { frameId, ...(documentId !== undefined ? { documentId } : {}), origin, originalName },
        onAsking: () => {
          context.waiting(`Waiting for the person to answer in the browser (${tool.entry.name} ${whereOf(tool)}).`);
          notifyWaiting(deps, client, tool, callId);
        },
      },
    );
    const code = output.isError ? parseToolError(toolText(output))?.code : undefined;
    // A refusal before the page says nothing of where the tab went; neither does the router's "the tool changed".
    if (!ran) return toMcpError(PLAIN_REFUSALS.has(code ?? '') ? output : refusalOutput(NOT_SHARED_ERROR));
    if (code && NOT_RUN_CODES.has(code)) return toMcpError(refusalOutput(NOT_SHARED_ERROR));
    // A call that took its tab to a page not shared (another site, or sharing stopped meanwhile) returns what that
    // page says of itself: it stays in the browser.
    if (!(await stillShared(deps, tool))) {
      return toMcpError(client.guard.settle(tool.entry, identity, refusalOutput(LEFT_SHARED_SITE_ERROR)));
    }
    client.read.add(identity.origin);
    const settled = client.guard.settle(tool.entry, identity, output);
    return toMcpResult(settled, client.spotlight, { tool: name, untrusted: tool.entry.annotations?.untrustedContentHint === true });
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    client.calls.delete(callId);
    void deps.browser.clearNotification(callId).catch(() => undefined);
  }
}

/** Whether the tab still shows the tool's shared site, so that what it returned may reach a client. */
async function stillShared(deps: CallSharedToolDeps, tool: SharedTool): Promise<boolean> {
  const tab = (await deps.browser.tabs().catch(() => [])).find((t) => t.tabId === tool.tabId);
  return deps.choices.enabled() && webOriginOf(tab?.url) === tool.site && deps.choices.isShared(tool.tabId, tool.site);
}

/** Tells the person a client waits for them, unless a panel shows the tab (it shows the question). */
function notifyWaiting(deps: CallSharedToolDeps, client: DesktopClient, tool: SharedTool, callId: string): void {
  if (deps.watched(tool.tabId)) return;
  void deps.browser
    .notify({
      id: callId,
      tabId: tool.tabId,
      title: `${client.name} is waiting for you`,
      // The background adds how to answer: it knows what its browser lets a click on the notification do.
      message: `Allow ${tool.entry.name} ${whereOf(tool)}?`,
    })
    .catch(() => undefined);
}

/** The text of an output's first text block. */
function toolText(output: ToolOutput): string {
  const first = output.content.find((c) => c.type === 'text');
  return first?.type === 'text' ? first.text : '';
}

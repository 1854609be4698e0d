/**
 * What the extension answers a desktop agent on its line (create-native-lines.ts): its hello, the shared tools'
 * list, and a call. Every field is the client's claim, checked here; a client's requests need its hello first. What
 * a handler throws reaches the client as the reply's error message, so each throws its own words: an exception's
 * text could name any tab or site.
 */
import type { LineHandlers } from '../messaging/create-request-line';
import type { BridgeCallResult, BridgeTool, ServerAsks } from '../messaging/mcp-bridge-messages';
import { isRecord } from '../shared/is-record';
import type { SharedCallContext } from './call-shared-tool';
import { refusalOutput } from './client-refusals';
import type { ClientRegistry, DesktopClient } from './create-client-registry';
import { toMcpError } from './to-mcp-result';

interface NativeClientDeps {
  clients: Pick<ClientRegistry, 'hello' | 'get'>;
  /** The shared tools as a client gets them (tools/list). */
  listTools(): Promise<BridgeTool[]>;
  /** A client got this list. */
  listed(tools: BridgeTool[]): void;
  /** Runs a call (call-shared-tool.ts). */
  callTool(client: DesktopClient, name: string, input: Record<string, unknown>, context: SharedCallContext): Promise<BridgeCallResult>;
  /** Who is connected changed: the panels hear. */
  clientsChanged(): void;
}

/** The handlers of one client's line. */
export function nativeClientHandlers(clientId: string, deps: NativeClientDeps): LineHandlers<ServerAsks> {
  const helloed = (): DesktopClient => {
    const client = deps.clients.get(clientId);
    if (!client) throw new Error('Say hello first.');
    return client;
  };
  return {
    'client/hello': (request) => {
      const refusal = deps.clients.hello(clientId, request);
      if (refusal) throw new Error(refusal);
      deps.clientsChanged();
      return { extension: 'webmcp-agent' };
    },
    'tools/list': async () => {
      helloed();
      const tools = await deps.listTools();
      deps.listed(tools);
      return { tools };
    },
    'tools/call': (request, context) => {
      const client = helloed();
      const input = isRecord(request.arguments) ? request.arguments : {};
      return deps
        .callTool(client, String(request.name ?? ''), input, { signal: context.signal, waiting: context.update })
        .catch(() => toMcpError(refusalOutput('Error: the call failed in the extension.')));
    },
  };
}

/**
 * Everything the native host sends the extension (bridge/src/protocol.ts), checked field by field: a line on the
 * socket is data, whoever wrote it. The host's own notices (busy, unpaired) are the background's to show; a
 * challenge is answered with the pairing proof; a client's requests need its hello first.
 */
import type { BridgeTool, NativeInbound } from '../messaging/mcp-bridge-messages';
import { isRecord } from '../shared/is-record';
import { refusalOutput } from './client-refusals';
import type { ClientRegistry, DesktopClient } from './create-client-registry';
import { toMcpError } from './to-mcp-result';

interface NativeMessageDeps {
  clients: Pick<ClientRegistry, 'hello' | 'get' | 'drop'>;
  reply(clientId: string, id: string, result: unknown): void;
  refuse(clientId: string, id: string, message: string): void;
  /** The shared tools as a client gets them (tools/list). */
  listTools(): Promise<BridgeTool[]>;
  /** A client got this list. */
  listed(tools: BridgeTool[]): void;
  /** Runs a call and posts its reply (call-shared-tool.ts). */
  callTool(client: DesktopClient, id: string, name: string, input: Record<string, unknown>): Promise<void>;
  /** Posts the proof of the pairing code for the host's nonce. */
  answerChallenge(nonce: string): void;
  /** Who is connected changed: the panels hear. */
  clientsChanged(): void;
}

/** Handles one message from the native host. */
export function handleNativeMessage(raw: unknown, deps: NativeMessageDeps): void {
  if (!isRecord(raw) || typeof raw.type !== 'string') return;
  const message = raw as NativeInbound;
  switch (message.type) {
    case 'host/busy':
    case 'host/unpaired':
      // The background shows these in the extension's own words (lib/background/explain-host-notice.ts).
      return;
    case 'host/challenge':
      // Firefox's host opens the socket only for the holder of the pairing code: the content scripts never have it.
      if (typeof message.nonce === 'string' && /^[0-9a-f]{16,64}$/.test(message.nonce)) deps.answerChallenge(message.nonce);
      return;
    case 'client/gone':
      if (typeof message.clientId === 'string' && deps.clients.drop(message.clientId)) deps.clientsChanged();
      return;
    case 'client/hello':
      onRequest(message, (clientId, id) => {
        const refusal = deps.clients.hello(clientId, message);
        if (refusal) return deps.refuse(clientId, id, refusal);
        deps.reply(clientId, id, { extension: 'webmcp-agent' });
        deps.clientsChanged();
      });
      return;
    case 'tools/list':
      onClientRequest(message, deps, (client, id) => {
        void deps.listTools().then((tools) => {
          deps.listed(tools);
          deps.reply(client.id, id, { tools });
        });
      });
      return;
    case 'tools/call':
      onClientRequest(message, deps, (client, id) => {
        const input = isRecord(message.arguments) ? message.arguments : {};
        // What went wrong stays in the extension: an exception's text could name any tab or site.
        void deps
          .callTool(client, id, String(message.name ?? ''), input)
          .catch(() => deps.reply(client.id, id, toMcpError(refusalOutput('Error: the call failed in the extension.'))));
      });
      return;
    case 'tools/cancel':
      onClientRequest(message, deps, (client, id) => client.calls.get(id)?.controller.abort());
      return;
    default:
      // A kind this end does not know is refused as any request of a client that never said hello, and else dropped.
      onClientRequest(exhaustive(message, raw), deps, () => undefined);
  }
}

/** A request names its client (the host's stamp) and an id the reply repeats (at most 100 characters of it). */
function onRequest(message: { clientId?: unknown; id?: unknown }, run: (clientId: string, id: string) => void): void {
  const { clientId } = message;
  if (typeof clientId !== 'string' || typeof message.id !== 'string') return;
  run(clientId, message.id.slice(0, 100));
}

/** A request of a client that said hello. */
function onClientRequest(
  message: { clientId?: unknown; id?: unknown },
  deps: NativeMessageDeps,
  run: (client: DesktopClient, id: string) => void,
): void {
  onRequest(message, (clientId, id) => {
    const client = deps.clients.get(clientId);
    if (!client) return deps.refuse(clientId, id, 'Say hello first.');
    run(client, id);
  });
}

/** The compiler's proof that every kind of the union has its case; at run time, the message as it came. */
function exhaustive(_message: never, raw: Record<string, unknown>): Record<string, unknown> {
  return raw;
}

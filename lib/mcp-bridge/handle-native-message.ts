/**
 * Everything the native host sends the extension (bridge/src/protocol.ts), checked field by field: a line on the
 * socket is data, whoever wrote it. The host's own notices (busy, unpaired) are the background's to show; a
 * challenge is answered with the pairing proof; a client that goes closes its line; a client's requests go to its
 * request line (create-native-lines.ts), which answers them (native-client-handlers.ts).
 */
import type { NativeInbound } from '../messaging/mcp-bridge-messages';
import { isRecord } from '../shared/is-record';
import type { ClientRegistry } from './create-client-registry';
import type { NativeLines } from './create-native-lines';

interface NativeMessageDeps {
  clients: Pick<ClientRegistry, 'drop'>;
  lines: Pick<NativeLines, 'receive' | 'drop'>;
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
      if (typeof message.clientId !== 'string') return;
      // Its line first: a call still running ends with the line's error as its reason.
      deps.lines.drop(message.clientId);
      if (deps.clients.drop(message.clientId)) deps.clientsChanged();
      return;
    default:
      // A client's request, stamped by the host with its connection (a kind no line asks is dropped there).
      if (typeof raw.clientId === 'string') deps.lines.receive(raw.clientId, raw);
  }
}

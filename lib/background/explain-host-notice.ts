/**
 * What the native host says of its own before it stops (bridge/src/protocol.ts HostToExtension), in the extension's
 * own words. The host's `message` is never shown: whatever arrives through the host is data, and an older host
 * relayed a line any program on the socket wrote, `host/busy` with a text of its choosing included (docs/security.md
 * § 7). So each kind and reason maps to a fixed sentence here, and an unknown reason to the kind's plain one.
 */
import type { HostBusyReason, HostUnpairedReason } from '../messaging/mcp-bridge-messages';
import { isRecord } from '../shared/is-record';

const BUSY: Record<HostBusyReason, string> = {
  'other-browser':
    'Another browser on this computer already shares its tools with desktop agents. Turn sharing off there to share from this one.',
  'no-socket':
    'The bridge could not open its socket in ~/.webmcp-agent (or the folder WEBMCP_AGENT_BRIDGE_DIR names). Check that the folder is yours and writable, then turn sharing off and on here.',
};
const BUSY_OTHERWISE = 'The bridge stopped before serving desktop agents. Turn sharing off and on here to start it again.';

const UNPAIRED: Record<HostUnpairedReason, string> = {
  'no-code':
    'Firefox needs a pairing code: run `npm run bridge -- install --browser firefox` and type the code it prints into the extension’s options page.',
  mismatch:
    'The pairing code saved here does not match this computer’s. Type the code `npm run bridge -- install --browser firefox` printed (`npm run bridge -- status` shows it again).',
};
const UNPAIRED_OTHERWISE =
  'The bridge refused this browser. Type the pairing code `npm run bridge -- status` shows into the extension’s options page.';

/**
 * The extension's sentence for the host's `host/busy` or `host/unpaired`, or undefined for any other message. A
 * message with a `clientId` came from a connection, not from the host (which stamps every connection's line with
 * one): it gets undefined too.
 */
export function explainHostNotice(message: unknown): string | undefined {
  if (!isRecord(message) || 'clientId' in message) return undefined;
  const reason = typeof message.reason === 'string' ? message.reason : '';
  if (message.type === 'host/busy') return Object.hasOwn(BUSY, reason) ? BUSY[reason as HostBusyReason] : BUSY_OTHERWISE;
  if (message.type === 'host/unpaired') {
    return Object.hasOwn(UNPAIRED, reason) ? UNPAIRED[reason as HostUnpairedReason] : UNPAIRED_OTHERWISE;
  }
  return undefined;
}

import type { AttestedSender } from '../messaging/is-host-sender';
import type { HostPort } from '../host/agent-host-deps';
import type { PanelPort } from '../messaging/agent-client';
import { createRuntimePortPair } from './runtime-port-pair';

/**
 * Two connected in-memory Ports with runtime Port semantics (runtime-port-pair.ts): messages are cloned and delivered
 * asynchronously, in order; disconnecting one end tells the other (never the end that disconnected). For tests of
 * both protocol ends, which then run against each other exactly as over browser.runtime. `sender` is what the host
 * end's `sender` says (the browser's attestation of who connected).
 */
export function createAgentPortPair(name: string, sender?: AttestedSender): { panel: PanelPort; host: HostPort & { disconnect(): void } } {
  const { connecting, accepted } = createRuntimePortPair(name, sender);
  return { panel: connecting as PanelPort, host: accepted as HostPort & { disconnect(): void } };
}

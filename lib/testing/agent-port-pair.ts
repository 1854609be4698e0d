import type { AttestedSender } from '../messaging/is-host-sender';
import type { HostPort } from '../host/agent-host-deps';
import type { PanelPort } from '../messaging/agent-client';
import type { HostEvent, PanelIntent } from '../messaging/agent-messages';

/**
 * Two connected in-memory Ports with runtime Port semantics: messages are cloned and delivered asynchronously, in
 * order; disconnecting one end tells the other (never the end that disconnected). For tests of both protocol
 * ends, which then run against each other exactly as over browser.runtime. `sender` is what the host end's
 * `sender` says (the browser's attestation of who connected).
 */
export function createAgentPortPair(name: string, sender?: AttestedSender): { panel: PanelPort; host: HostPort & { disconnect(): void } } {
  const panelMessage = new Set<(m: unknown) => void>();
  const hostMessage = new Set<(m: unknown) => void>();
  const panelDisconnect = new Set<() => void>();
  const hostDisconnect = new Set<() => void>();
  let open = true;
  const deliver = (listeners: Set<(m: unknown) => void>, message: unknown) => {
    if (!open) throw new Error('Attempting to use a disconnected port object');
    const copy = structuredClone(message);
    setTimeout(() => {
      if (open) for (const l of [...listeners]) l(copy);
    }, 0);
  };
  const close = (notify: Set<() => void>) => {
    if (!open) return;
    open = false;
    setTimeout(() => {
      for (const l of [...notify]) l();
    }, 0);
  };
  return {
    panel: {
      postMessage: (m: PanelIntent) => deliver(hostMessage, m),
      onMessage: { addListener: (l) => void panelMessage.add(l) },
      onDisconnect: { addListener: (l) => void panelDisconnect.add(l) },
      disconnect: () => close(hostDisconnect),
    },
    host: {
      name,
      ...(sender ? { sender } : {}),
      postMessage: (m: HostEvent) => deliver(panelMessage, m),
      onMessage: { addListener: (l) => void hostMessage.add(l) },
      onDisconnect: { addListener: (l) => void hostDisconnect.add(l) },
      disconnect: () => close(panelDisconnect),
    },
  };
}

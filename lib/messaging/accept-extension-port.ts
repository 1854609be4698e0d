/**
 * The guard every runtime Port the agent host takes goes through (the panel's `webmcp-agent-panel`, the sharing
 * `webmcp-agent-sharing`): a content script shares the extension id and can open a Port of either name, so only what
 * the browser attests about its sender counts (isHostSender). docs/security.md, the agent host's boundary.
 */
import { type AttestedSender, isHostSender } from './is-host-sender';

/** The extension's own identity: only its pages may talk to the host. */
export interface ExtensionIdentity {
  /** runtime.id */
  id: string;
  /** runtime.getURL('/'), for example "chrome-extension://<id>/". */
  origin: string;
}

/** The part of a runtime Port (browser.runtime.Port fits) the guard reads. */
interface GuardedPort {
  name: string;
  /** Who opened it, as the browser attests (runtime.Port.sender). */
  sender?: AttestedSender;
  disconnect?(): void;
}

/**
 * Whether `port` is a Port named `name` from one of the extension's own pages. A Port of another name is left alone
 * (another listener's); one of this name from anything else is disconnected, so it can neither drive the host nor
 * hear from it.
 */
export function acceptExtensionPort(port: GuardedPort, name: string, extension: ExtensionIdentity): boolean {
  if (port.name !== name) return false;
  if (isHostSender(port.sender, extension.id, extension.origin)) return true;
  try {
    port.disconnect?.();
  } catch {
    // Already gone.
  }
  return false;
}

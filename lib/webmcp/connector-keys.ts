/**
 * Where each world of a frame keeps the keys the background hands it for the page channel's handshake
 * (lib/webmcp/page-channel.ts, lib/background/load-connector.ts). Names only: this module is shared by the background
 * and both halves of the bridge.
 */

/**
 * The isolated world's global (private to the extension's content scripts of the frame) holding the array of keys
 * the bridge there accepts.
 */
export const ISOLATED_KEYS_GLOBAL = 'webmcpAgentBridgeKeys';

/**
 * The isolated world's key array, created on first use and shared with the injections still to come. (The
 * background's own injection, `giveIsolatedKey` in lib/background/load-connector.ts, must repeat these lines: a
 * function scripting.executeScript runs carries no imports.)
 */
export function isolatedKeys(scope: object): string[] {
  const global = scope as Record<string, string[] | undefined>;
  const keys = global[ISOLATED_KEYS_GLOBAL] ?? [];
  global[ISOLATED_KEYS_GLOBAL] = keys;
  return keys;
}

/**
 * `Symbol.for(PAGE_CONNECTOR_NAME)` on the page's window: set once page-connector.js started, to the function that takes
 * a key and announces the channel with it.
 */
export const PAGE_CONNECTOR_NAME = 'webmcp-agent.page-bridge';

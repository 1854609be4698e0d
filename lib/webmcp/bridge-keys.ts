/**
 * Where each world of a frame keeps the keys the background hands it for the page channel's handshake
 * (lib/webmcp/page-channel.ts, lib/background/load-bridge.ts). Names only: this module is shared by the background
 * and both halves of the bridge.
 */

/**
 * The isolated world's global (private to the extension's content scripts of the frame) holding the array of keys
 * the bridge there accepts.
 */
export const ISOLATED_KEYS_GLOBAL = 'webmcpAgentBridgeKeys';

/**
 * `Symbol.for(PAGE_BRIDGE_NAME)` on the page's window: set once page-bridge.js started, to the function that takes
 * a key and announces the channel with it.
 */
export const PAGE_BRIDGE_NAME = 'webmcp-agent.page-bridge';

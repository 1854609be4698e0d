/**
 * Whether a URL's origin is "potentially trustworthy" (W3C Secure Contexts), as Chromium 156 decides it for
 * `registerTool(tool, {exposedTo})` and `getTools({fromOrigins})`: WebMCP rejects any other origin with
 * `SecurityError` (webmachinelearning/webmcp, registerTool's "exposed origins" steps). Probed on Chromium 156:
 * https, wss and file; http and ws only on a loopback host (`localhost` and `*.localhost`, with or without the
 * trailing dot, 127.0.0.0/8, `[::1]`); Chrome's own secure schemes (extension pages, WebUI, devtools, isolated
 * apps); a blob: or filesystem: URL as the URL inside it. Opaque origins (data:, about:, javascript:, unknown
 * schemes) and anything the URL parser refuses are not.
 */

/** Chrome's schemes that count as secure whatever their host (moz-extension is Firefox's and Chromium refuses it). */
const SECURE_SCHEMES = new Set([
  'https:',
  'wss:',
  'file:',
  'chrome-extension:',
  'chrome:',
  'chrome-untrusted:',
  'devtools:',
  'isolated-app:',
]);

/**
 * Whether `text`, parsed as an absolute URL with `URLClass` (the page's `URL`), has a potentially trustworthy
 * origin. Never throws.
 */
export function isPotentiallyTrustworthyUrl(text: string, URLClass: typeof URL, nested = false): boolean {
  let url: URL;
  try {
    url = new URLClass(text);
  } catch {
    return false;
  }
  const scheme = url.protocol.toLowerCase();
  if (scheme === 'blob:' || scheme === 'filesystem:') {
    // Chromium gives a filesystem: URL its inner origin and a path of its own; the URL Standard (Node) keeps the
    // inner URL as the path.
    return !nested && isPotentiallyTrustworthyUrl(url.origin !== 'null' ? url.origin : url.pathname, URLClass, true);
  }
  if (SECURE_SCHEMES.has(scheme)) return scheme !== 'https:' && scheme !== 'wss:' ? true : url.hostname !== '';
  if (scheme !== 'http:' && scheme !== 'ws:') return false;
  const host = url.hostname.toLowerCase();
  return (
    /^(?:.+\.)?localhost\.?$/.test(host) ||
    // The URL parser has already written any IPv4 form (2130706433, 127.1, 0x7f.1) as four decimals.
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '[::1]'
  );
}

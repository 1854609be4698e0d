/**
 * The origin a tool dictionary passed to `executeTool` names, as native Chromium reads it (probed, Chromium 156;
 * tests/e2e/webmcp-conformance-cross-origin.spec.ts): the member is parsed as a URL and the tool is looked for under
 * that URL's origin, so `https://shop.example/any/path` and `HTTPS://SHOP.EXAMPLE` name `https://shop.example`. A
 * string that is no URL (`'null'` included) is refused, and so is one whose origin is opaque (`data:`, `about:`),
 * with NotSupportedError, once the permissions policy allowed the call and before anything else is checked.
 */

/** The serialised origin of `origin`; throws native's NotSupportedError. `url`: the page realm's URL constructor. */
export function readToolOrigin(origin: string, url: typeof URL): string {
  let parsed: URL;
  try {
    parsed = new url(origin);
  } catch {
    throw new DOMException('The provided origin is invalid.', 'NotSupportedError');
  }
  if (parsed.origin === 'null') {
    throw new DOMException('Cannot execute tools that live in a document with an opaque origin.', 'NotSupportedError');
  }
  return parsed.origin;
}

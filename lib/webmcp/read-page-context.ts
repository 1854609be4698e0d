/** What a document says about itself: URL, title, main h1 and its JSON-LD blocks (bounded, parsed as data). */
import type { FramePage } from '../messaging/bridge-messages';

const MAX_JSON_LD_BLOCKS = 5;
const MAX_JSON_LD_CHARS = 10_000;

/** Reads the page context of one document. */
export function readPageContext(doc: Document): FramePage {
  const page: FramePage = { url: doc.location?.href ?? '', title: (doc.title ?? '').slice(0, 300) };
  const h1 = doc.querySelector('h1')?.textContent?.replace(/\s+/g, ' ').trim();
  if (h1) page.h1 = h1.slice(0, 300);
  const jsonLd: unknown[] = [];
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]')).slice(0, MAX_JSON_LD_BLOCKS)) {
    const text = script.textContent ?? '';
    if (text.length > MAX_JSON_LD_CHARS) continue;
    try {
      jsonLd.push(JSON.parse(text));
    } catch {
      // A broken block is the page's problem; the others still count.
    }
  }
  if (jsonLd.length > 0) page.jsonLd = jsonLd;
  return page;
}

/** What a document says about itself: URL, title, main h1 and its JSON-LD blocks (bounded, parsed as data). */
import type { FramePage } from '../messaging/router-messages';
import { cleanPageText } from '../page-data/clean-page-text';

const MAX_JSON_LD_BLOCKS = 5;
const MAX_JSON_LD_CHARS = 10_000;

/** Reads the page context of one document. */
export function readPageContext(doc: Document): FramePage {
  // Title and heading are page text: hidden characters out, one line (the agent host cleans again before a model).
  const page: FramePage = { url: doc.location?.href ?? '', title: cleanPageText(doc.title ?? '', { oneLine: true }).slice(0, 300) };
  const h1 = cleanPageText(doc.querySelector('h1')?.textContent ?? '', { oneLine: true });
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

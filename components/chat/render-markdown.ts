import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';
import { Marked } from 'marked';

/**
 * The only elements model text may produce: what GitHub-flavoured Markdown renders, plus a few inline tags models
 * write by hand. None of them fetches anything by itself. Not here, on purpose: img, picture, source, video, audio,
 * track, iframe, object, embed, link, meta, base, style, script, noscript, template, form and every form control,
 * svg and math (and so every SVG `image`/`use`/`feImage`), and any unknown or custom element.
 */
export const MARKDOWN_TAGS: readonly string[] = [
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'code',
  'dd',
  'del',
  'details',
  'div',
  'dl',
  'dt',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
];

/**
 * The only attributes kept. `href` is the one address, and only on links; everything that makes a browser fetch
 * (`src`, `srcset`, `background`, `poster`, `style`, `action`, `formaction`, `data`, `ping`, `xlink:href`, …) and
 * everything that could restyle or impersonate the panel (`class`, `id`, `name`, `data-*`, `aria-*`) is dropped.
 */
export const MARKDOWN_ATTRIBUTES: readonly string[] = ['href', 'title', 'align', 'start', 'colspan', 'rowspan'];

/** The schemes a link may have. Relative, protocol-relative, `javascript:`, `data:`, `blob:` links lose their href. */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** Attributes that hold no address, so DOMPurify must not judge their value against the link schemes. */
const PLAIN_VALUE_ATTRIBUTES = ['align', 'start', 'colspan', 'rowspan'];

const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  // A task list's box as text: form controls are not allowed in the panel.
  renderer: { checkbox: ({ checked }) => (checked ? '☑ ' : '☐ ') },
});

let purifier: Purifier | undefined;

/**
 * Model text as HTML that fetches nothing. The text can quote whatever a page's tools returned, so it is written
 * by an attacker who wants the panel to send the conversation to their server without a click. The rules:
 *
 * 1. Markdown (GitHub flavour, single newlines kept) is rendered by marked; raw HTML in the text passes through
 *    to step 2 like any other markup.
 * 2. DOMPurify keeps only an allow-list: the elements in {@link MARKDOWN_TAGS} and the attributes in
 *    {@link MARKDOWN_ATTRIBUTES}. Anything else goes (its text stays, except inside script, style, noscript,
 *    svg, math, template and the like, which go whole). No `style` attribute or element, no SVG or MathML, no
 *    forms, no `link`, `meta`, `object`, `embed` or `iframe`.
 * 3. Links keep an `href` only when it is absolute `http:`, `https:` or `mailto:`, and always get
 *    `target="_blank"` and `rel="noopener noreferrer nofollow"`: they open in a new tab, only when clicked.
 * 4. No remote images: an image (Markdown `![alt](url)`, reference-style, or raw `<img>`) becomes its alt text
 *    and its address as a link the person may click, never an element that loads. Inside a link it becomes the
 *    alt text alone (links do not nest).
 * 5. Task-list boxes become ☐/☑ text.
 *
 * The panel's CSP (entrypoints/sidepanel/index.html) refuses images, media, fonts and connections from anywhere
 * else too, in case markup ever slips through.
 */
export function renderMarkdown(text: string): string {
  const known = rendered.get(text);
  if (known !== undefined) {
    // The newest use goes last: the oldest is the one let go.
    rendered.delete(text);
    rendered.set(text, known);
    return known;
  }
  const html = sanitizedHtml(text);
  keepRendered(text, html);
  return html;
}

/**
 * What renderMarkdown gave each text lately. The panel draws the whole conversation again at every change the host
 * sends (a few per message), and parsing and sanitising every text of it each time was the panel's largest part of an
 * errand's work on the thread it shares with the offscreen agent host (issue 45). The output depends on the text
 * alone. At most RENDERED_KEPT texts and RENDERED_CHARS characters of them.
 */
const rendered = new Map<string, string>();
const RENDERED_KEPT = 200;
const RENDERED_CHARS = 2_000_000;
let renderedChars = 0;

function keepRendered(text: string, html: string): void {
  if (text.length + html.length > RENDERED_CHARS) return;
  rendered.set(text, html);
  renderedChars += text.length + html.length;
  for (const [oldText, oldHtml] of rendered) {
    if (rendered.size <= RENDERED_KEPT && renderedChars <= RENDERED_CHARS) break;
    rendered.delete(oldText);
    renderedChars -= oldText.length + oldHtml.length;
  }
}

/** Marked, then DOMPurify with the rules above. */
function sanitizedHtml(text: string): string {
  purifier ??= createPurifier();
  const html = markdown.parse(text) as string;
  return purifier.sanitize(html, {
    ALLOWED_TAGS: [...MARKDOWN_TAGS],
    ALLOWED_ATTR: [...MARKDOWN_ATTRIBUTES],
    ADD_URI_SAFE_ATTR: PLAIN_VALUE_ATTRIBUTES,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
  });
}

/** A DOMPurify of our own, so these hooks never touch anyone else's sanitising. */
function createPurifier(): Purifier {
  const purify = DOMPurify();
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'img') (node as Element).after(imageAsText(node as Element));
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    if (href !== null && !linkAddress(href)) node.removeAttribute('href');
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer nofollow');
  });
  return purify;
}

/**
 * What an image shows instead of itself: "Image: alt" and its address as a link. Inserted after the image in
 * DOMPurify's inert document, so it is sanitised like everything else on the next step of the walk.
 */
function imageAsText(image: Element): Node {
  const doc = image.ownerDocument;
  const alt = (image.getAttribute('alt') ?? '').trim();
  const span = doc.createElement('span');
  span.append(alt ? `Image: ${alt}` : 'Image');
  const address = linkAddress(image.getAttribute('src') ?? '');
  if (address && !image.closest('a')) {
    const link = doc.createElement('a');
    link.setAttribute('href', address);
    link.append(address);
    span.append(' ', link);
  }
  return span;
}

/** The address when it is an absolute http(s) or mailto URL, else undefined. */
function linkAddress(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    return LINK_SCHEMES.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

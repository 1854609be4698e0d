import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const markdown = new Marked({ gfm: true, breaks: true, async: false });

let hooked = false;

/**
 * Model text as safe HTML: Markdown (GitHub flavour, single newlines kept) rendered by marked, then sanitised by
 * DOMPurify, because the text can quote whatever a page's tools returned. Links open in a new tab without an
 * opener; images are dropped (a page could use them to send data out through the model); forms and styles are gone.
 */
export function renderMarkdown(text: string): string {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
    hooked = true;
  }
  const html = markdown.parse(text) as string;
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'video', 'audio', 'svg'],
    FORBID_ATTR: ['style'],
    ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
  });
}

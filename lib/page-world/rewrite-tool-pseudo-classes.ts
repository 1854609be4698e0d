/**
 * Native's declarative pseudo-classes in selector or style sheet text, rewritten into what a page's selector engine
 * reads: `:tool-form-active` and `:tool-submit-active` become attribute selectors on the marks the polyfill sets on a
 * running form and its submit control (install-declarative-forms.ts). Strings, escapes and comments are left as
 * they are; names are matched in any case, as CSS matches pseudo-class names.
 */

/** The attributes the polyfill toggles while a form's call runs. */
export const FORM_ACTIVE_ATTRIBUTE = 'data-tool-form-active';
export const SUBMIT_ACTIVE_ATTRIBUTE = 'data-tool-submit-active';

/** Quick test before any work: most selectors a page asks have neither name. */
export const MENTIONS_TOOL_PSEUDO_CLASS = /:tool-(?:form|submit)-active/i;

const NAMES: Record<string, string> = { 'tool-form-active': FORM_ACTIVE_ATTRIBUTE, 'tool-submit-active': SUBMIT_ACTIVE_ATTRIBUTE };

/**
 * Where the text goes. For a page's selector methods, `:where(:root *)` keeps a removed form, whose call native
 * ends as it leaves the document, from matching before the polyfill's observer has seen the removal and taken its
 * mark off. Style sheets get the attribute alone, which weighs what a pseudo-class does: a removed form is not
 * rendered, and Chromium 156 does not restyle a form's fields when a mark inside `:not(… :where(:root *))` goes
 * (seen in the conformance test).
 */
export type RewriteFor = 'selector' | 'style sheet';

const NAME_CHAR = /[-\w\u0080-\uffff]/;

/** `text` with both pseudo-classes rewritten (text without them comes back as it was). */
export function rewriteToolPseudoClasses(text: string, target: RewriteFor): string {
  if (!MENTIONS_TOOL_PSEUDO_CLASS.test(text)) return text;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      out += text.slice(i, i + 2);
      i += 2;
    } else if (c === '"' || c === "'") {
      const end = endOfString(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close < 0 ? text.length : close + 2;
      out += text.slice(i, end);
      i = end;
    } else if (c === ':' && text[i - 1] !== ':') {
      const replaced = pseudoClassAt(text, i + 1, target);
      if (replaced) {
        out += replaced.text;
        i = replaced.end;
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function endOfString(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length && text[i] !== quote && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}

function pseudoClassAt(text: string, start: number, target: RewriteFor): { text: string; end: number } | undefined {
  for (const [name, attribute] of Object.entries(NAMES)) {
    const replacement = target === 'selector' ? `[${attribute}]:where(:root *)` : `[${attribute}]`;
    const end = start + name.length;
    if (text.slice(start, end).toLowerCase() === name && !NAME_CHAR.test(text[end] ?? '') && text[end] !== '(') {
      return { text: replacement, end };
    }
  }
  return undefined;
}

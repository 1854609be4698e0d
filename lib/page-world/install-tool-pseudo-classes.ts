/**
 * Native's `:tool-form-active` and `:tool-submit-active` for a page's script, under the polyfill (explainer,
 * "Pseudo-classes"): installed once a document has a declarative tool form (install-declarative-forms.ts), never on
 * other pages. A browser's selector parser cannot learn new pseudo-classes, so the selector methods a page calls
 * (`matches`, `closest`, `querySelector(All)`, `webkitMatchesSelector`, `CSS.supports('selector(…)')`) and the
 * style sheet methods that take rule text (`insertRule`, `replace`, `replaceSync`) read them as the attribute marks
 * the polyfill sets (rewrite-tool-pseudo-classes.ts). The page's `<style>` elements that use them, whose rules the
 * browser dropped while parsing, are mirrored: their rules that name either pseudo-class are parsed again,
 * rewritten, into one style sheet adopted by the document. Linked and cross-origin style sheets are not (the page's
 * script cannot read the rules the browser dropped from them without fetching them again). docs/webmcp-conformance.md.
 */
import { MENTIONS_TOOL_PSEUDO_CLASS, type RewriteFor, rewriteToolPseudoClasses } from './rewrite-tool-pseudo-classes';

const INSTALLED = Symbol.for('webmcp-agent.tool-pseudo-classes');

type Win = Window & typeof globalThis;

/** Installs the rewriting in this window once; returns what mirrors the page's `<style>` rules again. */
export function installToolPseudoClasses(win: Win): () => void {
  const installed = (win as unknown as Record<symbol, (() => void) | undefined>)[INSTALLED];
  if (installed) return installed;
  for (const proto of [win.Element.prototype, win.Document.prototype, win.DocumentFragment.prototype]) {
    for (const name of ['matches', 'webkitMatchesSelector', 'closest', 'querySelector', 'querySelectorAll']) {
      if (Object.hasOwn(proto, name)) rewriteFirstArgument(proto, name, 'selector');
    }
  }
  for (const name of ['insertRule', 'replace', 'replaceSync']) rewriteFirstArgument(win.CSSStyleSheet.prototype, name, 'style sheet');
  const css = win.CSS as unknown as Record<string, unknown> | undefined;
  if (css && typeof css.supports === 'function') {
    // One argument is a condition (`selector(…)` among others); two are a property and a value, left alone.
    rewriteFirstArgument(css, 'supports', 'style sheet', (args) => args.length === 1);
  }
  const mirror = mirrorStyleElements(win);
  Object.defineProperty(win, INSTALLED, { value: mirror });
  mirror();
  // A `<style>` added, removed or given new text: mirrored again (in the observer's microtask).
  new win.MutationObserver((records) => {
    if (records.some(touchesStyle)) mirror();
  }).observe(win.document, { childList: true, subtree: true });
  return mirror;
}

/**
 * Puts in place of `target[name]` a method of the same name, length and property attributes that rewrites its
 * first argument when it is a string naming either pseudo-class. Where the rewritten text still throws, the
 * original text is tried, so the page sees the browser's own error about what it wrote.
 */
function rewriteFirstArgument(
  target: object,
  name: string,
  rewriteFor: RewriteFor,
  applies: (args: unknown[]) => boolean = () => true,
): void {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  const original = descriptor?.value;
  if (typeof original !== 'function') return;
  const methods = {
    [name](this: unknown, ...args: unknown[]) {
      const first = args[0];
      if (typeof first !== 'string' || !MENTIONS_TOOL_PSEUDO_CLASS.test(first) || !applies(args)) {
        return Reflect.apply(original, this, args);
      }
      try {
        return Reflect.apply(original, this, [rewriteToolPseudoClasses(first, rewriteFor), ...args.slice(1)]);
      } catch {
        return Reflect.apply(original, this, args);
      }
    },
  };
  const method = methods[name];
  Object.defineProperty(method, 'length', { value: original.length });
  Object.defineProperty(target, name, { ...descriptor, value: method });
}

function touchesStyle(record: MutationRecord): boolean {
  const isStyle = (node: Node) => node.nodeName === 'STYLE' || (node.nodeType === 1 && (node as Element).querySelector('style') !== null);
  return record.target.nodeName === 'STYLE' || Array.from(record.addedNodes).some(isStyle) || Array.from(record.removedNodes).some(isStyle);
}

/**
 * Returns what mirrors the rules of the document's `<style>` elements that name a pseudo-class into one adopted
 * style sheet (built again each time; re-adopted if the page replaced `adoptedStyleSheets`). Called when the
 * first tool form is found, when a `<style>` comes, goes or changes its text, and whenever a form's call starts.
 */
function mirrorStyleElements(win: Win): () => void {
  let sheet: CSSStyleSheet | undefined;
  return () => {
    const doc = win.document;
    const texts: string[] = [];
    for (const style of Array.from(doc.querySelectorAll('style'))) {
      const text = style.textContent ?? '';
      if (!MENTIONS_TOOL_PSEUDO_CLASS.test(text)) continue;
      const media = style.getAttribute('media');
      texts.push(media ? `@media ${media} { ${text} }` : text);
    }
    if (!sheet && texts.length === 0) return;
    sheet ??= new win.CSSStyleSheet();
    sheet.replaceSync(rewriteToolPseudoClasses(texts.join('\n'), 'style sheet'));
    keepMarkedRules(sheet);
    if (!doc.adoptedStyleSheets.includes(sheet)) doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  };
}

/** Deletes every rule that does not use a mark (the rest already apply from the page's own sheet). */
function keepMarkedRules(list: CSSStyleSheet | CSSGroupingRule): void {
  for (let i = list.cssRules.length - 1; i >= 0; i--) {
    const rule = list.cssRules[i];
    // Grouping rules (@media, @supports, @layer, @container) hold rules; a style rule holds nested ones of its own.
    const grouping = 'insertRule' in rule && !('selectorText' in rule);
    if (grouping) keepMarkedRules(rule as CSSGroupingRule);
    const uses = grouping ? (rule as CSSGroupingRule).cssRules.length > 0 : /data-tool-(?:form|submit)-active/.test(rule.cssText);
    if (!uses) list.deleteRule(i);
  }
}

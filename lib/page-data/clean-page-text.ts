import { HIDDEN_CHARACTERS, LINE_BREAKS } from './hidden-characters';
import { setOwn } from '../shared/read-own';

/** How a piece of page text is used. */
interface CleanPageTextOptions {
  /** Cut to this many characters, ending with "…" when cut. */
  max?: number;
  /**
   * Text that must stay on one line (a tool title, a page title, a path, a heading): every run of whitespace,
   * newlines included, becomes one space, and the ends are trimmed. Otherwise newlines and tabs are kept and
   * the text is otherwise left as it was (a tool result stays as the page wrote it).
   */
  oneLine?: boolean;
}

/**
 * Page-supplied text as it may reach a model: the hidden characters of hidden-characters.ts removed, line breaks
 * made `\n`, and optionally one line and a length cap. Anything that is not a string reads as ''. The one
 * function every path uses for tool names, titles, descriptions, schema text, results and the page's title,
 * heading and path.
 */
export function cleanPageText(text: unknown, options: CleanPageTextOptions = {}): string {
  if (typeof text !== 'string') return '';
  let clean = text.replace(LINE_BREAKS, '\n').replace(HIDDEN_CHARACTERS, '');
  if (options.oneLine) clean = clean.replace(/\s+/g, ' ').trim();
  const { max } = options;
  if (max === undefined || clean.length <= max) return clean;
  let end = Math.max(0, max - 1);
  // Never cut a surrogate pair in two: half of one is a hidden character of its own.
  if (end > 0 && /[\uD800-\uDBFF]/.test(clean[end - 1])) end--;
  return `${clean.slice(0, end).trimEnd()}…`;
}

/** Deepest nesting {@link cleanPageValue} copies; deeper parts become empty (the callers bound schemas already). */
const MAX_DEPTH = 64;

/**
 * A copy of a JSON value from the page (a schema, structured data) with every string cleaned, keys included.
 * Cycles and nesting past 64 levels are cut. Keys that clean to the same text keep the last value.
 */
export function cleanPageValue<T>(value: T): T {
  const visit = (node: unknown, depth: number, seen: Set<object>): unknown => {
    if (typeof node === 'string') return cleanPageText(node);
    if (node === null || typeof node !== 'object') return node;
    if (seen.has(node) || depth > MAX_DEPTH) return Array.isArray(node) ? [] : {};
    seen.add(node);
    let out: unknown;
    if (Array.isArray(node)) out = node.map((item) => visit(item, depth + 1, seen));
    else {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(node)) {
        // A key is a name, `__proto__` too (a page may name a parameter so): an own property, never a prototype.
        setOwn(copy, cleanPageText(key), visit(item, depth + 1, seen));
      }
      out = copy;
    }
    seen.delete(node);
    return out;
  };
  return visit(value, 0, new Set()) as T;
}

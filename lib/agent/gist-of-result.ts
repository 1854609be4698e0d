/** Fields whose value, in a JSON result, is the result's own summary. */
const SUMMARY_FIELDS = ['message', 'summary', 'result', 'status', 'text', 'detail', 'description'];
/** Fields that name one item of a list. */
const LABEL_FIELDS = ['name', 'title', 'label', 'id'];

/**
 * The gist of a tool result in a sentence or two, for the person: a JSON result's own message or its first
 * fields, a list's count and first items, or the start of a text result, cut at a sentence end.
 */
export function gistOfResult(text: string, max = 280): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  let gist: string;
  try {
    gist = gistOfValue(JSON.parse(trimmed));
  } catch {
    gist = trimmed;
  }
  return cutAtSentence(gist.replace(/\s+/g, ' ').trim(), max);
}

function gistOfValue(value: unknown): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return 'No results.';
    const labels = value.slice(0, 5).map(label).filter(Boolean);
    const more = value.length > labels.length ? ', …' : '';
    return `${value.length} result${value.length === 1 ? '' : 's'}${labels.length ? `: ${labels.join(', ')}${more}` : '.'}`;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const field of SUMMARY_FIELDS) {
      if (typeof record[field] === 'string' && record[field]) return record[field] as string;
    }
    for (const inner of Object.values(record)) {
      if (Array.isArray(inner)) return gistOfValue(inner);
    }
    const pairs = Object.entries(record)
      .filter(([, v]) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
      .slice(0, 6)
      .map(([k, v]) => `${k}: ${v}`);
    return pairs.join(', ');
  }
  return String(value);
}

function label(item: unknown): string {
  if (item === null || typeof item !== 'object') return String(item);
  const record = item as Record<string, unknown>;
  for (const field of LABEL_FIELDS) {
    if (typeof record[field] === 'string' || typeof record[field] === 'number') return String(record[field]);
  }
  return '';
}

function cutAtSentence(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  return end > max / 2 ? head.slice(0, end + 1) : `${head.slice(0, max - 1).trimEnd()}…`;
}

/** What an export must never contain. */
export interface SecretsToRedact {
  /** Exact secret strings (the API key, values typed into secret fields): every occurrence is replaced. */
  values: readonly string[];
  /** Argument names per tool that hold secrets: their values are replaced wherever that tool's input appears. */
  fields?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What a redacted value becomes. */
export const REDACTED = '[redacted]';

/** Shortest string treated as a secret value: shorter ones ("1", "ok") would blank out ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/**
 * A deep copy of `value` with every occurrence of a secret string replaced by {@link REDACTED}, inside any string,
 * at any depth, in keys too. Cycles and non-plain values become their string forms; nothing here throws.
 */
export function redactSecrets<T>(value: T, secrets: SecretsToRedact): T {
  const needles = [...new Set(secrets.values)]
    .filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  const scrub = (text: string) => needles.reduce((out, needle) => out.split(needle).join(REDACTED), text);
  const seen = new WeakSet<object>();
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return scrub(node);
    if (typeof node !== 'object' || node === null) return node;
    if (seen.has(node)) return '[circular]';
    seen.add(node);
    if (Array.isArray(node)) return node.map(walk);
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [scrub(k), walk(v)]));
  };
  return walk(value) as T;
}

/** The values of a tool input's secret fields, to redact them wherever else they appear (a model may repeat them). */
export function secretValuesOf(input: unknown, names: ReadonlySet<string> | undefined): string[] {
  if (!names || typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  const out: string[] = [];
  for (const name of names) {
    const value = (input as Record<string, unknown>)[name];
    if (typeof value === 'string') out.push(value);
    else if (value !== undefined && value !== null) out.push(JSON.stringify(value));
  }
  return out;
}

/** A tool input with its secret fields replaced. */
export function maskSecretFields(input: unknown, names: ReadonlySet<string> | undefined): unknown {
  if (!names || names.size === 0 || typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, names.has(k) ? REDACTED : v]));
}

import type { SecretPath } from './secret-paths-of';

/** What an export must never contain. */
export interface SecretsToRedact {
  /** Exact secret strings (the API key, values typed into secret fields): every occurrence is replaced. */
  values: readonly string[];
  /**
   * Secret argument paths per tool name (the tools the page shows now, and what the person marked), on top of the
   * paths each call kept: their values are masked in every input of that tool and redacted wherever else they appear.
   */
  fields?: ReadonlyMap<string, readonly SecretPath[]>;
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

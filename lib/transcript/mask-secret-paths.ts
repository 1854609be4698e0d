import { REDACTED } from './redact-secrets';
import { ANY_ITEM, type SecretPath } from './secret-paths-of';

/** Deepest input nesting walked: a value deeper than this under a secret path's prefix is masked whole. */
const MAX_INPUT_DEPTH = 64;

/**
 * A tool input with the values at `paths` replaced by {@link REDACTED}, at any depth ({@link ANY_ITEM} matches
 * every array item and object value), and the values it took out: each masked string, each number as text, and an
 * object or array as its JSON and as its leaves, so the caller can redact them wherever else they appear (a model
 * or a page may repeat a password in its reply). Only keys present are masked; none are added. The input is not
 * changed.
 */
export function maskSecretPaths(input: unknown, paths: readonly SecretPath[]): { masked: unknown; values: string[] } {
  const values: string[] = [];
  const take = (value: unknown) => {
    collectValues(value, values, 0);
    return REDACTED;
  };
  const walk = (node: unknown, remaining: readonly SecretPath[], depth: number): unknown => {
    if (remaining.length === 0) return node;
    if (remaining.some((p) => p.length === 0)) return take(node);
    if (typeof node !== 'object' || node === null) return node;
    // Too deep to follow, but some secret lies below: mask it all rather than guess.
    if (depth >= MAX_INPUT_DEPTH) return take(node);
    const below = (key: string) => remaining.filter((p) => p[0] === key || p[0] === ANY_ITEM).map((p) => p.slice(1));
    if (Array.isArray(node)) return node.map((item, i) => walk(item, below(String(i)), depth + 1));
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, below(key), depth + 1)]));
  };
  return { masked: walk(input, paths, 0), values };
}

/** Every text form of a secret value worth redacting elsewhere; booleans and null are left out (they are everywhere). */
function collectValues(value: unknown, out: string[], depth: number): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'bigint') out.push(String(value));
  else if (typeof value === 'object' && value !== null && depth < MAX_INPUT_DEPTH) {
    try {
      out.push(JSON.stringify(value));
    } catch {
      // A cycle: its leaves below are still taken.
    }
    for (const child of Object.values(value)) collectValues(child, out, depth + 1);
  }
}

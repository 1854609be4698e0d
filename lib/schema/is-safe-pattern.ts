import { SCHEMA_LIMITS } from './schema-limits';

/**
 * Whether a schema's `pattern` is safe to run on a model's arguments: it compiles under the `u` flag (as JSON Schema
 * reads it), is no longer than SCHEMA_LIMITS.patternLength, and has none of the classic catastrophic shapes (a
 * quantified group holding a quantifier or an alternation, a back-reference).
 */
export function isSafePattern(pattern: string): boolean {
  if (pattern.length > SCHEMA_LIMITS.patternLength) return false;
  // A quantified group that itself holds a quantifier or an alternation: (a+)+, (a|aa)*, (\w+\s?)*.
  if (/\((?:[^()\\]|\\.)*(?:[+*}]|\|)(?:[^()\\]|\\.)*\)\s*(?:[+*]|\{\d)/.test(pattern)) return false;
  if (/\\\d/.test(pattern)) return false; // backreferences
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

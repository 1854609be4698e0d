/** What the loop should do about a call it just ran. */
type LoopVerdict = 'new' | 'flag' | 'stop';

/** Remembers calls and their answers within one run, to catch a model going in circles. */
interface LoopDetector {
  /**
   * Records a finished call. A call with the same name and arguments that got the same answer as before is a
   * repeat: the first repeat is 'flag' (tell the model once), any later one 'stop'.
   */
  record(name: string, input: unknown, result: string): LoopVerdict;
  /** Records a call made before the run (a resumed turn's finished calls): seen, never flagged. */
  remember(name: string, input: unknown, result: string): void;
}

/** A fresh {@link LoopDetector}. */
export function createLoopDetector(): LoopDetector {
  const seen = new Map<string, Set<string>>();
  let flagged = false;
  const key = (name: string, input: unknown) => `${name}\u0000${stableStringify(input)}`;
  const remember = (name: string, input: unknown, result: string) => {
    const k = key(name, input);
    const results = seen.get(k) ?? new Set<string>();
    results.add(result);
    seen.set(k, results);
  };
  return {
    remember,
    record(name, input, result) {
      const repeat = seen.get(key(name, input))?.has(result) ?? false;
      remember(name, input, result);
      if (!repeat) return 'new';
      if (flagged) return 'stop';
      flagged = true;
      return 'flag';
    },
  };
}

/** JSON with object keys sorted, so {a, b} and {b, a} are the same call. */
export function stableStringify(value: unknown, depth = 0): string {
  if (depth > 32) return '…';
  if (Array.isArray(value)) return `[${value.map((v) => stableStringify(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k], depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

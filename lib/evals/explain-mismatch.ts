/**
 * Argument matching for evals, with the reasons a value does not match. The rules are webmcp-evals' (see
 * docs/evals.md § Matching):
 * - An object whose keys all start with `$` is a constraint: `$pattern` (a regular expression, optionally led by
 *   inline flags such as `(?i)`), `$contains` (substring), `$gt` `$gte` `$lt` `$lte` (numbers), `$type` (`string`,
 *   `number`, `boolean`, `array`, `object`, `null`), `$any` (present, whatever its value). Every constraint in it
 *   must hold.
 * - Any other object matches as a subset: each expected key must be present and match; extra actual keys are fine.
 * - Arrays match strictly: the same length, element by element.
 * - Anything else must be equal (`===`).
 */

/** The constraint operators, for validation. */
export const CONSTRAINT_OPERATORS = ['$pattern', '$contains', '$gt', '$gte', '$lt', '$lte', '$type', '$any'] as const;

const TYPES = ['string', 'number', 'boolean', 'array', 'object', 'null'];
const INLINE_FLAGS = /^\(\?([a-zA-Z]+)\)/;
const REGEX_FLAGS = new Set(['d', 'g', 'i', 'm', 's', 'u', 'v', 'y']);

/** Whether a value is a constraint object: a non-empty object whose keys all start with `$`. */
export function isConstraint(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith('$'));
}

/**
 * The RegExp a `$pattern` stands for. A leading `(?flags)` becomes the RegExp's flags (JavaScript has no inline
 * flags). Throws a SyntaxError naming the pattern when it is not a valid expression.
 */
export function patternToRegExp(pattern: string): RegExp {
  const inline = INLINE_FLAGS.exec(pattern);
  const flags = inline?.[1] ?? '';
  for (const flag of flags) {
    if (!REGEX_FLAGS.has(flag)) throw new SyntaxError(`Unsupported inline flag "(?${flag})" in $pattern ${JSON.stringify(pattern)}.`);
  }
  return new RegExp(inline ? pattern.slice(inline[0].length) : pattern, flags);
}

/**
 * The reasons `actual` does not match `expected`, one sentence each, prefixed by the path of the value inside the
 * arguments (`query`, `items[1].sku`). Empty when it matches.
 */
export function explainMismatch(expected: unknown, actual: unknown, path = ''): string[] {
  const at = path === '' ? 'the value' : path;
  if (isConstraint(expected)) return explainConstraint(expected, actual, at);
  if (expected === actual) return [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected a list, got ${show(actual)}`];
    if (expected.length !== actual.length) return [`${at}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((item, i) => explainMismatch(item, actual[i], `${path}[${i}]`));
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return [`${at}: expected an object, got ${show(actual)}`];
    return Object.keys(expected).flatMap((key) => {
      const inner = path === '' ? key : `${path}.${key}`;
      if (!Object.hasOwn(actual, key)) return [`${inner}: missing`];
      return explainMismatch((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], inner);
    });
  }
  return [`${at}: expected ${show(expected)}, got ${show(actual)}`];
}

/** Whether `actual` matches `expected`. */
export function matchesArgument(expected: unknown, actual: unknown): boolean {
  return explainMismatch(expected, actual).length === 0;
}

function explainConstraint(constraint: Record<string, unknown>, actual: unknown, at: string): string[] {
  const reasons: string[] = [];
  for (const [operator, operand] of Object.entries(constraint)) {
    switch (operator) {
      case '$pattern':
        if (typeof actual !== 'string' || !patternToRegExp(String(operand)).test(actual))
          reasons.push(`${at}: expected to match /${String(operand)}/, got ${show(actual)}`);
        break;
      case '$contains':
        if (typeof actual !== 'string' || !actual.includes(String(operand)))
          reasons.push(`${at}: expected to contain ${show(operand)}, got ${show(actual)}`);
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        if (typeof actual !== 'number' || !compare(operator, actual, Number(operand)))
          reasons.push(`${at}: expected ${WORDS[operator]} ${show(operand)}, got ${show(actual)}`);
        break;
      case '$type':
        if (typeOf(actual) !== operand) reasons.push(`${at}: expected a ${String(operand)}, got ${show(actual)}`);
        break;
      case '$any':
        break;
      default:
        reasons.push(`${at}: unknown constraint ${operator}`);
    }
  }
  return reasons;
}

const WORDS = { $gt: 'more than', $gte: 'at least', $lt: 'less than', $lte: 'at most' } as const;

function compare(operator: keyof typeof WORDS, actual: number, bound: number): boolean {
  if (operator === '$gt') return actual > bound;
  if (operator === '$gte') return actual >= bound;
  if (operator === '$lt') return actual < bound;
  return actual <= bound;
}

/** The `$type` name of a value. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Whether a `$type` operand is one of the known names. */
export function isKnownType(name: unknown): boolean {
  return typeof name === 'string' && TYPES.includes(name);
}

/** A value in a reason, short. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

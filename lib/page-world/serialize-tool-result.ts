import { thrownMessage } from '../page-data/describe-thrown';

/** Native Chromium's words for a tool that threw, or whose result cannot be serialised. */
const INVOCATION_FAILED = 'Tool was executed but the invocation failed. For example, the script function threw an error';

/** The value that marks a call that navigated the page (executeTool resolves null). */
export const NAVIGATED = Symbol('navigated');

/**
 * A tool's result as executeTool resolves it, as native: null for a call that navigated, a string as it is, an
 * object (or function) as JSON, anything else as its string. Throws native's UnknownError for an object that cannot
 * be serialised.
 */
export function serializeToolResult(value: unknown): string | null {
  if (value === NAVIGATED) return null;
  if (typeof value === 'string') return value;
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      // A result that cannot be serialised (a cycle, a BigInt inside): native rejects the call.
      throw new DOMException(INVOCATION_FAILED, 'UnknownError');
    }
    if (json !== undefined) return json;
  }
  try {
    return String(value);
  } catch {
    return thrownMessage(value);
  }
}

/** Native Chromium's words for an unknown tool or a tool of another document (it says no more than this). */
const UNKNOWN_TOOL_MESSAGE = 'The operation failed for an unknown transient reason (e.g. out of memory).';

/**
 * The UnknownError native rejects with for a tool it does not find (made up, unregistered, another document's, or
 * one whose document went away): one place for the words, shared by the polyfill's modules.
 */
export function unknownToolError(): DOMException {
  return new DOMException(UNKNOWN_TOOL_MESSAGE, 'UnknownError');
}

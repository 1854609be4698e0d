/**
 * The text of anything thrown: an Error's message, or the value itself as a string (code may throw strings,
 * DOMExceptions are Errors, and a rejected promise can carry anything).
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

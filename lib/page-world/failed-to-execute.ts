/** "Failed to execute 'op' on 'ModelContext': …", native's TypeError wording, for the polyfill's own messages. */
export function failedToExecute(operation: string, detail: string): string {
  return `Failed to execute '${operation}' on 'ModelContext': ${detail}`;
}

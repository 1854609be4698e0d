/**
 * The window of the document that registered a tool, as a getTools() entry names it: `window` on Chromium 156's
 * dictionaries, `source` on Chrome 160's `Tool` objects (docs/platform-notes.md, "Chrome's newer shapes"). Both
 * lists hold the tools of every same-origin document of the tree, and each frame reports only its own.
 */
import { readPageField } from './read-page-field';

/** The entry's window, or undefined when it names none (an implementation that lists only its own document's). */
export function toolOwnerWindow(entry: unknown): object | undefined {
  for (const key of ['window', 'source']) {
    const value = readPageField(entry, key);
    if (typeof value === 'object' && value !== null) return value;
  }
  return undefined;
}

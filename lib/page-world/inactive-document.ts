/**
 * A document that is no longer fully active (its frame was removed, or it navigated to another document) keeps its
 * `modelContext`, and every method on it rejects with InvalidStateError (the WebMCP spec's registerTool, step 3;
 * native Chromium does the same for getTools and executeTool). Shared by the stub and the polyfill.
 *
 * Chromium no longer creates the interface objects such a document's realm had not created yet (`DOMException`,
 * `EventTarget`, `Event` read as undefined), so the error's class is reached through an exception the document
 * itself throws.
 */

/** Whether `doc` is no longer its frame's document: its frame was removed, or it navigated away. */
export function isInactive(doc: Document): boolean {
  return doc.defaultView === null;
}

/** Native's InvalidStateError for a document that is not fully active, a DOMException of that document's realm. */
export function inactiveError(doc: Document): DOMException {
  let Class: typeof DOMException | undefined;
  try {
    doc.createElement('');
  } catch (error) {
    Class = (error as DOMException).constructor as typeof DOMException;
  }
  // The global is read only where createElement('') did not throw (not a browser).
  return new (Class ?? DOMException)('The document is not active.', 'InvalidStateError');
}

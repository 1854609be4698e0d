/** The start of a snippet the reader could not use, short enough to quote back to the model. */
export function snippet(text: string): string {
  const t = text.trim();
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}

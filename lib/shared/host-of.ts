/** The host (with port) of an origin or URL, for people to read; the text itself when it is not a URL. */
export function hostOf(origin: string): string {
  try {
    return new URL(origin).host || origin;
  } catch {
    return origin;
  }
}

/** The origin of a URL, or undefined when there is none a site could be known by (no URL, an opaque origin). */
export function webOriginOf(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const origin = new URL(href).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

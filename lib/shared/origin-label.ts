import { hostOf } from './host-of';
import { webOriginOf } from './web-origin-of';

/**
 * An origin whose data a caller holds, for people to read: its host (with port), or "a sandboxed frame" for an
 * opaque origin ("null"), which names no site.
 */
export function originLabel(origin: string): string {
  return webOriginOf(origin) === undefined ? 'a sandboxed frame' : hostOf(origin);
}

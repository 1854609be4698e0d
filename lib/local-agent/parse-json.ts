import { jsonrepair } from 'jsonrepair';

/** JSON.parse, then (when `repair`) jsonrepair for quotes, trailing commas, Python literals, missing brackets. */
export function parseJson(text: string, repair: boolean): unknown {
  const t = text.trim();
  if (t === '') return undefined;
  try {
    return JSON.parse(t);
  } catch {
    if (!repair) return undefined;
  }
  try {
    const repaired = JSON.parse(jsonrepair(t));
    // jsonrepair turns any text into a string; only structures count as repaired calls.
    return typeof repaired === 'object' && repaired !== null ? repaired : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The form of an API key a view may show: enough to recognise which key is saved ("sk-…abcd"), never enough
 * to use it. Long keys keep their 3-character kind prefix and last 4 characters; short ones only their last 2;
 * very short ones nothing.
 */
export function maskApiKey(key: string): string {
  const k = key.trim();
  if (k.length >= 20) return `${k.slice(0, 3)}…${k.slice(-4)}`;
  if (k.length >= 8) return `…${k.slice(-2)}`;
  return '…';
}

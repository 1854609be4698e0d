/**
 * Firefox's pairing code (bridge/src/pairing.ts): the person types the code `npm run bridge -- install` printed, the
 * extension keeps it in privileged storage (never a content script's), and answers the host's challenge with an HMAC
 * of its nonce. Firefox's host opens the socket only for the holder of the code.
 */
import type { StorageArea } from '../messaging/storage-area';

/** Where the code is kept (the extension's privileged storage; Firefox: its IndexedDB). */
const PAIRING_KEY = 'mcpBridge.pairingCode';

/** The code as the host uses it in the HMAC (bridge/src/pairing.ts normalizePairingCode). */
function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/** HMAC-SHA256(code, nonce) in hex, as the host checks it (bridge/src/pairing.ts pairingProof). */
export async function pairingProof(code: string, nonce: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(normalizeCode(code)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(nonce)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The kept code, or undefined when none was typed. */
export async function readPairingCode(storage: Pick<StorageArea, 'get'>): Promise<string | undefined> {
  const stored = (await storage.get([PAIRING_KEY]).catch((): Record<string, unknown> => ({})))[PAIRING_KEY];
  return typeof stored === 'string' ? stored : undefined;
}

/** Keeps a typed code; false (nothing kept) when it is not one. */
export async function savePairingCode(storage: Pick<StorageArea, 'set'>, typed: unknown): Promise<boolean> {
  const code = typeof typed === 'string' ? normalizeCode(typed) : '';
  if (code.length < 12 || code.length > 64) return false;
  await storage.set({ [PAIRING_KEY]: code }).catch(() => undefined);
  return true;
}

/** The answer to the host's challenge: the proof of the kept code, or '' when none was typed. */
export async function answerChallenge(storage: Pick<StorageArea, 'get'>, nonce: string): Promise<string> {
  const code = (await readPairingCode(storage)) ?? '';
  return code ? await pairingProof(code, nonce) : '';
}

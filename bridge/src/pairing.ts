/**
 * Pairing, for Firefox. Firefox gives an extension's content scripts runtime.connectNative too (its schema allows
 * the "content" context; on firefox-esr 153 the function is there, and the Port it opens closes at once), so a
 * content script in a compromised renderer, or a Firefox that lets the call through, could start this host and, with
 * sharing off, answer desktop agents in the extension's place. So a host that Firefox started
 * opens the socket only after the extension proves it holds the pairing code: the installer writes the code here
 * (mode 0600) and prints it; the person types it once into the extension's options page, which keeps it where content
 * scripts cannot read it (docs/security.md § 2); at every start the host sends a fresh nonce and the extension
 * answers HMAC-SHA256(code, nonce). Chrome gives content scripts no connectNative (checked on Chromium 156), so a
 * host Chrome started needs no pairing.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Crockford's base32: no I, L, O or U to misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Where the pairing code is kept. */
export function pairingFile(home: string): string {
  return join(home, '.webmcp-agent', 'pairing-code');
}

/** A new code: 12 characters (60 bits), shown as XXXX-XXXX-XXXX. */
export function newPairingCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => ALPHABET[b % 32]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/** The code as both ends use it in the HMAC: upper case, without separators or spaces. */
export function normalizePairingCode(code: string): string {
  return code.toUpperCase().replace(/[^0-9A-Z]/g, '');
}

/** The code kept at `home`, made (and kept) when there is none yet. */
export function ensurePairingCode(home: string, renew = false): string {
  const file = pairingFile(home);
  if (!renew && existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (normalizePairingCode(kept).length >= 12) return kept;
  }
  const code = newPairingCode();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${code}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return code;
}

/** The code kept at `home`, or undefined. */
export function readPairingCode(home: string): string | undefined {
  try {
    const code = readFileSync(pairingFile(home), 'utf8').trim();
    return normalizePairingCode(code).length >= 12 ? code : undefined;
  } catch {
    return undefined;
  }
}

/** A fresh challenge. */
export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The proof for a nonce: HMAC-SHA256 keyed with the normalized code, hex. */
export function pairingProof(code: string, nonce: string): string {
  return createHmac('sha256', normalizePairingCode(code)).update(nonce).digest('hex');
}

/** Whether `proof` answers `nonce` for `code`, compared in constant time. */
export function checkPairingProof(code: string, nonce: string, proof: unknown): boolean {
  if (typeof proof !== 'string' || !/^[0-9a-f]{64}$/.test(proof)) return false;
  return timingSafeEqual(Buffer.from(pairingProof(code, nonce), 'hex'), Buffer.from(proof, 'hex'));
}

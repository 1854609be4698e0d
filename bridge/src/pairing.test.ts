import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pairingProof as extensionProof } from '../../lib/mcp-bridge/pairing-code';
import { checkPairingProof, ensurePairingCode, newNonce, pairingFile, pairingProof, readPairingCode } from './pairing.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'webmcp-pairing-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('Firefox pairing', () => {
  it('makes a code once, readable only by its owner, keeps it on reinstall and renews it when asked', () => {
    const code = ensurePairingCode(home);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(statSync(pairingFile(home)).mode & 0o777).toBe(0o600);
    expect(ensurePairingCode(home)).toBe(code);
    expect(readPairingCode(home)).toBe(code);
    const renewed = ensurePairingCode(home, true);
    expect(renewed).not.toBe(code);
    expect(readFileSync(pairingFile(home), 'utf8').trim()).toBe(renewed);
  });

  it('the extension’s proof (WebCrypto) is the one the host checks, however the person typed the code', async () => {
    const code = 'AB12-CD34-EF56';
    const nonce = newNonce();
    const typed = await extensionProof(' ab12 cd34-ef56 ', nonce);
    expect(typed).toBe(pairingProof(code, nonce));
    expect(checkPairingProof(code, nonce, typed)).toBe(true);
    expect(checkPairingProof(code, newNonce(), typed)).toBe(false);
    expect(checkPairingProof('AB12-CD34-EF57', nonce, typed)).toBe(false);
    expect(checkPairingProof(code, nonce, '')).toBe(false);
    expect(checkPairingProof(code, nonce, { proof: typed })).toBe(false);
  });
});

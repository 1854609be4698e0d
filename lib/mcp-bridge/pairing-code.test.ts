import { describe, expect, it } from 'vitest';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { answerChallenge, pairingProof, readPairingCode, savePairingCode } from './pairing-code';

const NONCE = '0123456789abcdef0123456789abcdef';

describe('the pairing code', () => {
  it('keeps a typed code as the host uses it, and refuses one too short, too long or not text', async () => {
    const storage = createMemoryStorageArea();
    expect(await savePairingCode(storage, 'abcd-efgh-jk')).toBe(false);
    expect(await savePairingCode(storage, 'X'.repeat(65))).toBe(false);
    expect(await savePairingCode(storage, 42)).toBe(false);
    expect(await readPairingCode(storage)).toBeUndefined();
    expect(await savePairingCode(storage, 'abcd-efgh-jkmn')).toBe(true);
    expect(await readPairingCode(storage)).toBe('ABCDEFGHJKMN');
  });

  it('answers a challenge with the HMAC of the nonce under the kept code, and with nothing without one', async () => {
    const storage = createMemoryStorageArea();
    expect(await answerChallenge(storage, NONCE)).toBe('');
    await savePairingCode(storage, 'abcd-efgh-jkmn');
    const proof = await answerChallenge(storage, NONCE);
    expect(proof).toMatch(/^[0-9a-f]{64}$/);
    expect(proof).toBe(await pairingProof('ABCD EFGH JKMN', NONCE));
    expect(proof).not.toBe(await pairingProof('ABCDEFGHJKMP', NONCE));
  });
});

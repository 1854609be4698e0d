import { describe, expect, it } from 'vitest';
import { readFormScan } from './read-form-scan';

describe('readFormScan', () => {
  it('reads executeScript results into frames, sorted by frame id', () => {
    const form = {
      label: '#f',
      toolname: 'send',
      hasDescription: true,
      autosubmit: false,
      fields: [{ name: 'a', type: 'text', label: 'A', described: true }],
    };
    expect(
      readFormScan([
        { frameId: 3, result: { origin: 'https://b.example', forms: [] } },
        { frameId: 0, result: { origin: 'https://a.example', forms: [form] } },
      ]),
    ).toEqual([
      { frameId: 0, origin: 'https://a.example', forms: [form] },
      { frameId: 3, origin: 'https://b.example', forms: [] },
    ]);
  });

  it('treats what frames answered as hostile: malformed parts dropped, text cleaned and cut, lists bounded', () => {
    const frames = readFormScan([
      null,
      { frameId: -1, result: { origin: 'x', forms: [] } },
      { frameId: 1, result: 'nope' },
      { frameId: 2, error: 'frame went away' },
      {
        frameId: 4,
        result: {
          origin: 'https://c.example\u2066',
          forms: [
            { label: 'L'.repeat(500), toolname: 7, hasDescription: 'yes', fields: [null, { name: 'n\u200B', described: 1 }] },
            'not a form',
            ...Array.from({ length: 80 }, () => ({ label: 'f', fields: [] })),
          ],
        },
      },
    ]);
    expect(frames).toHaveLength(1);
    const [frame] = frames;
    expect(frame.origin).toBe('https://c.example');
    expect(frame.forms).toHaveLength(49);
    expect(frame.forms[0]).toEqual({
      label: `${'L'.repeat(119)}…`,
      hasDescription: false,
      autosubmit: false,
      fields: [{ name: 'n', type: 'text', label: '', described: false }],
    });
    expect(readFormScan('not a list')).toEqual([]);
  });
});

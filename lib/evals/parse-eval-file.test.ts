import { describe, expect, it } from 'vitest';
import { parseEvalFile } from './parse-eval-file';

const valid = [
  {
    name: 'Search Tokyo',
    messages: [{ role: 'user', type: 'message', content: 'Find a hotel in Tokyo' }],
    expectedCall: [
      { functionName: 'search_location', arguments: { query: { $pattern: '(?i)tokyo' } } },
      { unordered: [{ functionName: 'a' }, { ordered: [{ functionName: 'b' }, { functionName: 'c', optional: true }] }] },
    ],
    forbiddenCalls: [{ functionName: 'book' }],
  },
  { messages: [{ role: 'user', type: 'message', content: 'Hi' }], expectedCall: null },
];

describe('parseEvalFile', () => {
  it('reads a file in the webmcp-evals format, with forbiddenCalls', () => {
    const parsed = parseEvalFile(JSON.stringify(valid));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.cases).toHaveLength(2);
      expect(parsed.cases[0].forbiddenCalls).toEqual([{ functionName: 'book' }]);
      expect(parsed.cases[1].expectedCall).toBeNull();
    }
  });

  it('says the file is not JSON, or not a list', () => {
    expect(parseEvalFile('{nope')).toMatchObject({ ok: false, errors: [expect.stringMatching(/^The file is not valid JSON/)] });
    expect(parseEvalFile('{}')).toEqual({ ok: false, errors: ['The file must be a JSON array of eval cases.'] });
    expect(parseEvalFile('[]')).toEqual({ ok: false, errors: ['The file has no eval cases.'] });
  });

  it('reports every problem with the case and the path', () => {
    const bad = [
      {
        name: 'Broken',
        messages: [{ role: 'model', type: 'message', content: 'hello' }],
        expectedCall: [
          { functionName: '' },
          { functionName: 'x', arguments: { q: { $pattern: '(' } } },
          { functionName: 'y', arguments: { n: { $between: [1, 2] } } },
          { functionName: 'z', arguments: { t: { $type: 'date' } } },
          { unordered: [] },
        ],
      },
    ];
    const parsed = parseEvalFile(JSON.stringify(bad));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.errors).toEqual([
        'case 1 ("Broken") › messages: must end with a user message',
        'case 1 ("Broken") › expectedCall[0].functionName: must name the tool',
        expect.stringMatching(/^case 1 \("Broken"\) › expectedCall\[1\]\.arguments\.q: \$pattern is not a valid regular expression/),
        'case 1 ("Broken") › expectedCall[2].arguments.n: unknown constraint $between (known: $pattern, $contains, $gt, $gte, $lt, $lte, $type, $any)',
        'case 1 ("Broken") › expectedCall[3].arguments.t: $type must be one of string, number, boolean, array, object, null',
        'case 1 ("Broken") › expectedCall[4].unordered: must be a non-empty list',
      ]);
    }
  });

  it('refuses an unordered group of groups too large to try every order of', () => {
    const group = { unordered: Array.from({ length: 9 }, (_, i) => ({ ordered: [{ functionName: `f${i}` }] })) };
    const parsed = parseEvalFile(JSON.stringify([{ messages: [{ role: 'user', type: 'message', content: 'x' }], expectedCall: [group] }]));
    expect(parsed).toMatchObject({
      ok: false,
      errors: ['case 1 › expectedCall[0].unordered: a group that holds groups may have at most 8 children'],
    });
  });
});

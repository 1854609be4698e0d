import { describe, expect, it } from 'vitest';
import type { ActualCall, EvalCase, ExpectedCallNode } from './eval-types';
import { countRequired, scoreEvalCase } from './score-eval-case';

const user = (content: string) => ({ role: 'user' as const, type: 'message' as const, content });
const evalOf = (expectedCall: ExpectedCallNode[] | null, extra: Partial<EvalCase> = {}): EvalCase => ({
  messages: [user('do it')],
  expectedCall,
  ...extra,
});
const call = (functionName: string, args: unknown = {}, result?: unknown): ActualCall => ({
  functionName,
  args,
  ...(result !== undefined ? { result } : {}),
});

describe('scoreEvalCase', () => {
  describe('ordered calls', () => {
    const expected: ExpectedCallNode[] = [
      { functionName: 'search_location', arguments: { query: 'Tokyo' } },
      { functionName: 'filter_search_results', arguments: { amenities: ['gym', 'breakfast'] } },
    ];

    it('passes when the calls come in order with matching arguments', () => {
      const score = scoreEvalCase(evalOf(expected), [
        call('search_location', { query: 'Tokyo' }),
        call('filter_search_results', { amenities: ['gym', 'breakfast'] }),
      ]);
      expect(score.outcome).toBe('pass');
      expect(score.passed).toBe(2);
      expect(score.required).toBe(2);
    });

    it('fails when the order is swapped', () => {
      const score = scoreEvalCase(evalOf(expected), [
        call('filter_search_results', { amenities: ['gym', 'breakfast'] }),
        call('search_location', { query: 'Tokyo' }),
      ]);
      expect(score.outcome).toBe('fail');
      expect(score.rows[0].differences).toEqual(['called filter_search_results instead of search_location']);
    });

    it('fails with the argument difference when an argument is wrong', () => {
      const score = scoreEvalCase(evalOf(expected), [
        call('search_location', { query: 'Kyoto' }),
        call('filter_search_results', { amenities: ['gym', 'breakfast'] }),
      ]);
      expect(score.outcome).toBe('fail');
      expect(score.rows[0]).toMatchObject({ outcome: 'fail', differences: ['arguments: query: expected "Tokyo", got "Kyoto"'] });
      expect(score.rows[1].outcome).toBe('pass');
    });

    it('fails a call that was never made, and an extra call at the end', () => {
      const missing = scoreEvalCase(evalOf(expected), [call('search_location', { query: 'Tokyo' })]);
      expect(missing.outcome).toBe('fail');
      expect(missing.rows[1]).toMatchObject({ actual: null, differences: ['not called'] });
      const extra = scoreEvalCase(evalOf(expected), [
        call('search_location', { query: 'Tokyo' }),
        call('filter_search_results', { amenities: ['gym', 'breakfast'] }),
        call('view_hotel', { id: 1 }),
      ]);
      expect(extra.outcome).toBe('fail');
      expect(extra.rows.at(-1)).toMatchObject({ expected: null, differences: ['view_hotel was not expected here'] });
    });

    it('skips an optional call that was not made, and matches one that was', () => {
      const withOptional: ExpectedCallNode[] = [
        { functionName: 'search', arguments: { q: 'hat' } },
        { functionName: 'get_results', optional: true },
        { functionName: 'add_to_cart' },
      ];
      expect(scoreEvalCase(evalOf(withOptional), [call('search', { q: 'hat' }), call('add_to_cart')]).outcome).toBe('pass');
      const made = scoreEvalCase(evalOf(withOptional), [call('search', { q: 'hat' }), call('get_results'), call('add_to_cart')]);
      expect(made.outcome).toBe('pass');
      expect(made.rows).toHaveLength(3);
      expect(countRequired(withOptional)).toBe(2);
    });

    it('ignores arguments when the expectation has none, and checks a result constraint', () => {
      expect(scoreEvalCase(evalOf([{ functionName: 'share', arguments: null }]), [call('share', { to: 'x' })]).outcome).toBe('pass');
      const withResult = evalOf([{ functionName: 'get_cart', result: { total: { $gt: 0 } } }]);
      expect(scoreEvalCase(withResult, [call('get_cart', {}, { total: 12 })]).outcome).toBe('pass');
      expect(scoreEvalCase(withResult, [call('get_cart', {}, { total: 0 })]).rows[0].differences).toEqual([
        'result.total: expected more than 0, got 0',
      ]);
    });
  });

  describe('no calls expected', () => {
    it('passes null and [] only when no tool was called', () => {
      expect(scoreEvalCase(evalOf(null), []).outcome).toBe('pass');
      expect(scoreEvalCase(evalOf([]), []).outcome).toBe('pass');
      expect(scoreEvalCase(evalOf(null), [call('check_out')]).outcome).toBe('fail');
    });
  });

  describe('unordered groups', () => {
    const toppings: ExpectedCallNode[] = [
      {
        unordered: [
          { functionName: 'set_size', arguments: { size: 'Small' } },
          { functionName: 'add_topping', arguments: { topping: '🫑' } },
          { functionName: 'add_topping', arguments: { topping: '🧅' } },
        ],
      },
      { functionName: 'share_pizza', arguments: {} },
    ];

    it('passes in any order inside the group, then in order after it', () => {
      const score = scoreEvalCase(evalOf(toppings), [
        call('add_topping', { topping: '🧅' }),
        call('set_size', { size: 'Small' }),
        call('add_topping', { topping: '🫑' }),
        call('share_pizza'),
      ]);
      expect(score.outcome).toBe('pass');
      expect(score.passed).toBe(4);
    });

    it('shares constraints out by the best assignment, not the first fit', () => {
      const loose: ExpectedCallNode[] = [
        {
          unordered: [
            { functionName: 'add', arguments: { item: { $type: 'string' } } },
            { functionName: 'add', arguments: { item: 'hat' } },
          ],
        },
      ];
      expect(scoreEvalCase(evalOf(loose), [call('add', { item: 'hat' }), call('add', { item: 'scarf' })]).outcome).toBe('pass');
    });

    it('fails when a call of the group is missing or wrong, with the closest expectation beside the wrong call', () => {
      const score = scoreEvalCase(evalOf(toppings), [
        call('add_topping', { topping: '🍄' }),
        call('set_size', { size: 'Small' }),
        call('add_topping', { topping: '🫑' }),
        call('share_pizza'),
      ]);
      expect(score.outcome).toBe('fail');
      const wrong = score.rows.find((r) => r.outcome === 'fail');
      expect(wrong?.differences).toEqual(['arguments: topping: expected "🧅", got "🍄"']);
      expect(score.rows.at(-1)).toMatchObject({ outcome: 'pass', expected: { functionName: 'share_pizza' } });
    });

    it('does not let an optional call of the group swallow the call after it', () => {
      const group: ExpectedCallNode[] = [
        { unordered: [{ functionName: 'a' }, { functionName: 'b' }, { functionName: 'peek', optional: true }] },
        { functionName: 'done' },
      ];
      expect(scoreEvalCase(evalOf(group), [call('b'), call('a'), call('done')]).outcome).toBe('pass');
      expect(scoreEvalCase(evalOf(group), [call('b'), call('peek'), call('a'), call('done')]).outcome).toBe('pass');
    });
  });

  describe('nested groups', () => {
    const nested: ExpectedCallNode[] = [
      {
        unordered: [
          {
            ordered: [
              { functionName: 'open_product', arguments: { id: 1 } },
              { functionName: 'add_to_cart', arguments: { id: 1 } },
            ],
          },
          {
            ordered: [
              { functionName: 'open_product', arguments: { id: 2 } },
              { functionName: 'add_to_cart', arguments: { id: 2 } },
            ],
          },
        ],
      },
      { functionName: 'check_out' },
    ];

    it('passes either order of the inner sequences', () => {
      const oneThenTwo = [
        call('open_product', { id: 1 }),
        call('add_to_cart', { id: 1 }),
        call('open_product', { id: 2 }),
        call('add_to_cart', { id: 2 }),
        call('check_out'),
      ];
      const twoThenOne = [
        call('open_product', { id: 2 }),
        call('add_to_cart', { id: 2 }),
        call('open_product', { id: 1 }),
        call('add_to_cart', { id: 1 }),
        call('check_out'),
      ];
      expect(scoreEvalCase(evalOf(nested), oneThenTwo).outcome).toBe('pass');
      expect(scoreEvalCase(evalOf(nested), twoThenOne).outcome).toBe('pass');
    });

    it('fails when the inner sequences interleave', () => {
      const interleaved = [
        call('open_product', { id: 1 }),
        call('open_product', { id: 2 }),
        call('add_to_cart', { id: 1 }),
        call('add_to_cart', { id: 2 }),
        call('check_out'),
      ];
      expect(scoreEvalCase(evalOf(nested), interleaved).outcome).toBe('fail');
    });
  });

  describe('forbiddenCalls', () => {
    it('fails a case that makes a forbidden call, even when every expected call passed', () => {
      const evalCase = evalOf([{ functionName: 'get_cart' }], { forbiddenCalls: [{ functionName: 'check_out' }] });
      expect(scoreEvalCase(evalCase, [call('get_cart')]).outcome).toBe('pass');
      const score = scoreEvalCase(evalCase, [call('get_cart'), call('check_out')]);
      expect(score.outcome).toBe('fail');
      expect(score.rows.some((r) => r.differences.includes('check_out is a forbidden call'))).toBe(true);
    });

    it('matches forbidden arguments with the same rules', () => {
      const evalCase = evalOf(null, { forbiddenCalls: [{ functionName: 'add_to_cart', arguments: { qty: { $gt: 5 } } }] });
      expect(scoreEvalCase(evalCase, [call('add_to_cart', { qty: 9 })]).rows.flatMap((r) => r.differences)).toContain(
        'add_to_cart is a forbidden call',
      );
      expect(
        scoreEvalCase(evalOf([{ functionName: 'add_to_cart' }], { forbiddenCalls: evalCase.forbiddenCalls }), [
          call('add_to_cart', { qty: 1 }),
        ]).outcome,
      ).toBe('pass');
    });
  });
});

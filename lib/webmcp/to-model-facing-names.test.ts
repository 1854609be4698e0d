import { describe, expect, it } from 'vitest';
import { MODEL_NAME_PATTERN, toModelFacingNames } from './to-model-facing-names';

const at = (frameId: number, name: string) => ({ frameId, origin: 'http://a.test', name });

describe('toModelFacingNames', () => {
  it('keeps safe names and replaces dots and other characters', () => {
    expect(toModelFacingNames([at(0, 'search'), at(0, 'cart.add'), at(0, 'héllo wörld')])).toEqual(['search', 'cart_add', 'h_llo_w_rld']);
  });

  it('makes names unique across frames, in order, ignoring case', () => {
    expect(toModelFacingNames([at(0, 'where'), at(3, 'where'), at(7, 'Where'), at(7, 'where_2')])).toEqual(['where', 'where_2', 'Where_3', 'where_2_2']);
  });

  it('always matches the provider pattern, even for long names', () => {
    const long = 'a.'.repeat(100);
    const names = toModelFacingNames([at(0, long), at(1, long), at(2, '...')]);
    for (const name of names) expect(name).toMatch(MODEL_NAME_PATTERN);
    expect(new Set(names).size).toBe(3);
    expect(names[1].endsWith('_2')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { assignToolNames, MODEL_NAME_PATTERN, toModelFacingNames, toolIdentityKey } from './to-model-facing-names';

const at = (frameId: number, name: string) => ({ frameId, origin: 'http://a.test', name });

describe('toModelFacingNames', () => {
  it('keeps safe names and replaces dots and other characters', () => {
    expect(toModelFacingNames([at(0, 'search'), at(0, 'cart.add'), at(0, 'héllo wörld')])).toEqual(['search', 'cart_add', 'h_llo_w_rld']);
  });

  it('makes names unique across frames, in order, ignoring case', () => {
    expect(toModelFacingNames([at(0, 'where'), at(3, 'where'), at(7, 'Where'), at(7, 'where_2')])).toEqual([
      'where',
      'where_2',
      'Where_3',
      'where_2_2',
    ]);
  });

  it('always matches the provider pattern, even for long names', () => {
    const long = 'a.'.repeat(100);
    const names = toModelFacingNames([at(0, long), at(1, long), at(2, '...')]);
    for (const name of names) expect(name).toMatch(MODEL_NAME_PATTERN);
    expect(new Set(names).size).toBe(3);
    expect(names[1].endsWith('_2')).toBe(true);
  });
});

describe('assignToolNames', () => {
  const top = (name: string) => ({ frameId: 0, origin: 'http://shop.test', name });
  const ad = (name: string) => ({ frameId: 7, origin: 'http://ads.test', name });
  const named = (names: Record<string, string>, tools: { frameId: number; origin: string; name: string }[]) =>
    tools.map((t) => names[toolIdentityKey(t)]);

  it('gives the top frame its plain name even when a frame registered it first, renaming the frame tool away', () => {
    const first = assignToolNames({}, [ad('place_order')]);
    expect(named(first, [ad('place_order')])).toEqual(['place_order']);
    const second = assignToolNames(first, [ad('place_order'), top('place_order')]);
    expect(named(second, [top('place_order'), ad('place_order')])).toEqual(['place_order', 'place_order_2']);
  });

  it('keeps names with their tools otherwise, and never reuses a name for another frame tool', () => {
    let names = assignToolNames({}, [top('where'), ad('where')]);
    expect(named(names, [top('where'), ad('where')])).toEqual(['where', 'where_2']);
    const other = { frameId: 9, origin: 'http://c.test', name: 'where' };
    // The ad frame goes away; a new frame's "where" does not get its name.
    names = assignToolNames(names, [top('where'), other]);
    expect(named(names, [other])).toEqual(['where_3']);
    // A frame tool renamed away from the top's name never gets a name another tool had.
    let n2 = assignToolNames({}, [ad('pay'), ad('pay_2')]);
    n2 = assignToolNames(n2, [top('pay'), ad('pay'), ad('pay_2')]);
    expect(named(n2, [top('pay'), ad('pay'), ad('pay_2')])).toEqual(['pay', 'pay_3', 'pay_2']);
  });

  it('top tools that clash among themselves are named in order, as before', () => {
    const names = assignToolNames({}, [top('cart.add'), top('cart_add')]);
    expect(named(names, [top('cart.add'), top('cart_add')])).toEqual(['cart_add', 'cart_add_2']);
  });

  it('never gives a page tool the search tool’s name (find_tools), in any case or spelling, the top frame’s either', () => {
    const names = assignToolNames({}, [top('find_tools'), top('Find-Tools'), ad('find_tools')]);
    expect(named(names, [top('find_tools'), top('Find-Tools'), ad('find_tools')])).toEqual([
      'find_tools_2',
      'Find-Tools_2',
      'find_tools_3',
    ]);
    expect(toModelFacingNames([at(0, 'find.tools')])).toEqual(['find_tools_2']);
    // A name given before the search tool existed is taken back.
    const old = { [toolIdentityKey(top('find_tools'))]: 'find_tools' };
    expect(named(assignToolNames(old, [top('find_tools')]), [top('find_tools')])).toEqual(['find_tools_2']);
  });
});

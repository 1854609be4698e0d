import { describe, expect, it } from 'vitest';
import { readPageField } from './read-page-field';

describe('readPageField', () => {
  it('reads a plain property, an inherited one and a getter', () => {
    const base = { inherited: 1 };
    const target = Object.create(base, { own: { value: 'a' }, computed: { get: () => 'b' } });
    expect(readPageField(target, 'own')).toBe('a');
    expect(readPageField(target, 'inherited')).toBe(1);
    expect(readPageField(target, 'computed')).toBe('b');
  });

  it('reads a throwing getter or Proxy trap as undefined, and the other fields still', () => {
    const target = Object.defineProperty({ name: 'ok' }, 'description', {
      get() {
        throw new Error('hostile');
      },
    });
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error('hostile trap');
        },
      },
    );
    expect(readPageField(target, 'description')).toBeUndefined();
    expect(readPageField(target, 'name')).toBe('ok');
    expect(readPageField(proxy, 'name')).toBeUndefined();
  });

  it('reads anything that is not an object as undefined, and a function as an object', () => {
    for (const value of [null, undefined, 1, 'name', true, Symbol('s')]) expect(readPageField(value, 'name')).toBeUndefined();
    const fn = Object.assign(() => 0, { label: 'x' });
    expect(readPageField(fn, 'label')).toBe('x');
  });
});

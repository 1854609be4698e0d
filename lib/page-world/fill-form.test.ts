// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { checkboxValue, fillForm } from './fill-form';

const win = () => window as unknown as Window & typeof globalThis;

afterEach(() => {
  document.body.innerHTML = '';
});

describe('checkboxValue', () => {
  it('reads what native reads', () => {
    const table: [unknown, boolean | undefined][] = [
      [true, true],
      [false, false],
      [1, true],
      [-3, true],
      [0, false],
      [2147483647, true],
      [-2147483648, true],
      // Beyond 32 bits a JSON integer is a double to Chromium, as a fraction is.
      [2147483648, undefined],
      [1e21, undefined],
      [0.5, undefined],
      ['TRUE', true],
      ['false', false],
      ['1', true],
      ['0', false],
      ['on', undefined],
      ['2', undefined],
      [' true', undefined],
      ['', undefined],
      [null, undefined],
      [[], undefined],
    ];
    expect(table.map(([value]) => checkboxValue(value))).toEqual(table.map(([, expected]) => expected));
  });
});

describe('fillForm', () => {
  it('checks every value before it sets any, and sets them with input and change only where a value changed', () => {
    document.body.innerHTML = `<form id="f"><input name="a" value="x"><input name="b" type="checkbox"><select name="c">
      <option value="1">One</option><option value="2">Two</option></select></form>`;
    const form = document.getElementById('f') as HTMLFormElement;
    const events: string[] = [];
    for (const type of ['input', 'change'])
      form.addEventListener(type, (e) => events.push(`${type} ${(e.target as HTMLInputElement).name}`));
    expect(() => fillForm(win(), form, { a: 'y', c: 3 })).toThrow('Invalid value "3" for parameter c');
    expect(() => fillForm(win(), form, { a: 'y', z: 1 })).toThrow('Input contains a parameter "z"');
    expect([(form.elements.namedItem('a') as HTMLInputElement).value, events]).toEqual(['x', []]);
    fillForm(win(), form, { a: 'x', b: true, c: 2 });
    expect([(form.elements.namedItem('b') as HTMLInputElement).checked, (form.elements.namedItem('c') as HTMLSelectElement).value]).toEqual(
      [true, '2'],
    );
    expect(events).toEqual(['input b', 'change b', 'input c', 'change c']);
  });
});

// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { formsTouchedBy } from './forms-touched-by';

/** Makes a tool form like the probe's, then records what `change` does to the document, and classifies it. */
function touchedBy(change: (form: HTMLFormElement) => void): string[] {
  document.body.innerHTML =
    '<form id="tool" toolname="t" tooldescription="d"><label for="pick">Pick</label>' +
    '<select id="pick" name="pick"><option value="a">A</option></select><div id="wrap"></div>' +
    '<label>Note <input name="note"></label></form><form id="other"></form>';
  const form = document.getElementById('tool') as HTMLFormElement;
  const observer = new MutationObserver(() => undefined);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
  change(form);
  const records = observer.takeRecords();
  observer.disconnect();
  return [...formsTouchedBy(records)].map((f) => f.id);
}

describe('formsTouchedBy', () => {
  it('counts the form’s tool attributes, any attribute of its controls, and its own children', () => {
    expect(touchedBy((f) => f.setAttribute('tooldescription', 'new'))).toEqual(['tool']);
    expect(touchedBy((f) => f.setAttribute('tooltitle', 'A title'))).toEqual(['tool']);
    expect(touchedBy((f) => (f.querySelector('select') as HTMLSelectElement).setAttribute('data-x', '1'))).toEqual(['tool']);
    expect(touchedBy((f) => (f.querySelector('input') as HTMLInputElement).setAttribute('required', ''))).toEqual(['tool']);
    expect(touchedBy((f) => f.append(document.createElement('div')))).toEqual(['tool']);
    expect(touchedBy((f) => (f.querySelector('#wrap') as HTMLElement).append(document.createElement('input')))).toEqual(['tool']);
    expect(touchedBy((f) => (f.querySelector('input') as HTMLInputElement).remove())).toEqual(['tool']);
  });

  it('does not count text, options, labels, the form’s other attributes, inline style, or controls elsewhere', () => {
    expect(touchedBy((f) => ((f.querySelector('option') as HTMLOptionElement).textContent = 'B'))).toEqual([]);
    expect(touchedBy((f) => (f.querySelector('option') as HTMLOptionElement).setAttribute('value', 'z'))).toEqual([]);
    expect(
      touchedBy((f) =>
        (f.querySelector('select') as HTMLSelectElement).append(Object.assign(document.createElement('option'), { value: 'c' })),
      ),
    ).toEqual([]);
    expect(touchedBy((f) => (f.querySelector('label') as HTMLLabelElement).setAttribute('for', 'nothing'))).toEqual([]);
    expect(touchedBy((f) => (f.querySelector('label') as HTMLLabelElement).append(document.createElement('span')))).toEqual([]);
    expect(touchedBy((f) => f.setAttribute('class', 'styled'))).toEqual([]);
    expect(touchedBy((f) => ((f.querySelector('select') as HTMLSelectElement).style.color = 'red'))).toEqual([]);
    expect(touchedBy(() => document.body.append(document.createElement('input')))).toEqual([]);
  });
});

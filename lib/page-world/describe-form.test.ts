// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { describeForm, groupControls } from './describe-form';

afterEach(() => {
  document.body.innerHTML = '';
});

const formOf = (html: string) => {
  document.body.innerHTML = html;
  return document.querySelector('form') as HTMLFormElement;
};

describe('describeForm', () => {
  it('names the tool from the form’s attributes and its parameters from the named controls, required ones listed', () => {
    const form = formOf(`<form toolname="find" tooltitle="Find" tooldescription="Finds things">
      <input name="q" required toolparamdescription="What to find"><label>Count <input name="n" type="number"></label>
      <input name="ro" readonly><input name="off" disabled><input type="file" name="upload"><button>Go</button></form>`);
    expect(JSON.stringify(describeForm(form))).toBe(
      JSON.stringify({
        name: 'find',
        title: 'Find',
        description: 'Finds things',
        inputSchema: {
          type: 'object',
          properties: { q: { type: 'string', description: 'What to find' }, n: { type: 'number', multipleOf: 1, description: 'Count' } },
          required: ['q'],
        },
      }),
    );
  });

  it('leaves out a name shared by fields that are not all radio buttons or all checkboxes', () => {
    const form = formOf(`<form toolname="t" tooldescription="d"><input name="x"><input name="x" type="checkbox"></form>`);
    expect(describeForm(form).inputSchema.properties).toEqual({});
  });
});

describe('groupControls', () => {
  it('groups the enabled, writable listed controls by name, buttons included', () => {
    const form = formOf(`<form><input name="a"><input name="a"><button name="b">B</button><input name="c" disabled></form>`);
    expect([...groupControls(form)].map(([name, controls]) => [name, controls.length])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });
});

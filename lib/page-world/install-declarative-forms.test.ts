// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { submitEventState } from './define-submit-event-members';
import { installDeclarativeForms } from './install-declarative-forms';
import { PolyfillModelContext } from './install-model-context-polyfill';
import { FORM_ACTIVE_ATTRIBUTE, SUBMIT_ACTIVE_ATTRIBUTE } from './rewrite-tool-pseudo-classes';

const win = () => window as unknown as Window & typeof globalThis;
let stop: (() => void) | undefined;

afterEach(() => {
  stop?.();
  stop = undefined;
  document.body.innerHTML = '';
});

/** The polyfill with declarative forms over `html`; `tool(name)` waits until the form is listed. */
function withForms(html: string) {
  document.body.innerHTML = html;
  const mc = new PolyfillModelContext(win());
  stop = installDeclarativeForms(win(), mc);
  const tool = async (name: string) => {
    for (;;) {
      const found = (await mc.getTools()).find((t) => t.name === name);
      if (found) return found;
      await new Promise((resolve) => mc.addEventListener('toolchange', resolve, { once: true }));
    }
  };
  const form = (id: string) => document.getElementById(id) as HTMLFormElement;
  return { mc, tool, form };
}

const answerForm = `<form id="f" toolname="answer" tooldescription="Answers" toolautosubmit>
  <input name="q"><button type="submit" id="go">Go</button></form>`;

describe('SubmitEvent.agentInvoked and respondWith()', () => {
  it('are defined once, as native defines them: false and InvalidStateError for a submit that is not the agent’s', () => {
    const state = submitEventState(win());
    expect(submitEventState(win())).toBe(state);
    const proto = SubmitEvent.prototype as unknown as Record<string, unknown>;
    const getter = Object.getOwnPropertyDescriptor(proto, 'agentInvoked');
    const method = Object.getOwnPropertyDescriptor(proto, 'respondWith');
    expect([typeof getter?.get, getter?.enumerable, getter?.configurable, getter?.get?.name]).toEqual([
      'function',
      true,
      true,
      'get agentInvoked',
    ]);
    expect([typeof method?.value, method?.writable, method?.enumerable, (method?.value as (() => void) | undefined)?.length]).toEqual([
      'function',
      true,
      true,
      1,
    ]);
    const event = new SubmitEvent('submit', { cancelable: true }) as SubmitEvent & Record<string, any>;
    expect(event.agentInvoked).toBe(false);
    expect(() => event.respondWith(Promise.resolve(1))).toThrow(expect.objectContaining({ name: 'InvalidStateError' }));
    expect(() => event.respondWith()).toThrow(TypeError);
  });

  it('hand an agent’s event to the polyfill, which checks the rest', () => {
    const state = submitEventState(win());
    const event = new SubmitEvent('submit', { cancelable: true }) as SubmitEvent & Record<string, any>;
    const answers: unknown[] = [];
    state.agent.set(event, { respond: (target, response) => answers.push([target === event, response]) });
    expect(event.agentInvoked).toBe(true);
    event.respondWith('answer');
    expect(answers).toEqual([[true, 'answer']]);
  });
});

describe('installDeclarativeForms', () => {
  it('answers with respondWith() during the dispatch, marks the form meanwhile, and calls the event the agent’s', async () => {
    const { mc, tool, form } = withForms(answerForm);
    const seen: unknown[] = [];
    form('f').addEventListener('submit', (event) => {
      const e = event as SubmitEvent & Record<string, any>;
      seen.push([
        e.agentInvoked,
        form('f').hasAttribute(FORM_ACTIVE_ATTRIBUTE),
        document.getElementById('go')?.hasAttribute(SUBMIT_ACTIVE_ATTRIBUTE),
      ]);
      e.preventDefault();
      e.respondWith(Promise.resolve({ ok: true }));
    });
    expect(await mc.executeTool(await tool('answer'), { q: 'x' })).toBe('{"ok":true}');
    expect(seen).toEqual([[true, true, true]]);
    expect(form('f').hasAttribute(FORM_ACTIVE_ATTRIBUTE)).toBe(false);
    expect(document.getElementById('go')?.hasAttribute(SUBMIT_ACTIVE_ATTRIBUTE)).toBe(false);
  });

  it('rejects with UnknownError when the page prevents the submit without an answer, or answers too late', async () => {
    const { mc, tool, form } = withForms(answerForm);
    let late: Promise<unknown> = Promise.resolve();
    form('f').addEventListener('submit', (event) => {
      const e = event as SubmitEvent & Record<string, any>;
      e.preventDefault();
      late = new Promise((resolve) =>
        setTimeout(() => {
          try {
            e.respondWith('too late');
            resolve('answered');
          } catch (error) {
            resolve((error as DOMException).name);
          }
        }, 0),
      );
    });
    await expect(mc.executeTool(await tool('answer'), { q: 'x' })).rejects.toMatchObject({ name: 'UnknownError' });
    expect(await late).toBe('InvalidStateError');
  });

  it('takes an array for a <select multiple>, with one input and one change, none when nothing changes', async () => {
    const { mc, tool, form } = withForms(`<form id="f" toolname="pick" tooldescription="Picks" toolautosubmit>
      <select name="fruits" id="fruits" multiple><option value="apple">Apple</option><option value="pear">Pear</option></select></form>`);
    form('f').addEventListener('submit', (event) => {
      event.preventDefault();
      (event as SubmitEvent & Record<string, any>).respondWith('picked');
    });
    const fruits = document.getElementById('fruits') as HTMLSelectElement;
    const events: string[] = [];
    fruits.addEventListener('input', () => events.push('input'));
    fruits.addEventListener('change', () => events.push('change'));
    const pick = await tool('pick');
    expect(pick.inputSchema).toMatchObject({
      properties: { fruits: { type: 'array', items: { enum: ['apple', 'pear'] }, uniqueItems: true } },
    });
    expect(await mc.executeTool(pick, { fruits: ['pear'] })).toBe('picked');
    expect([Array.from(fruits.selectedOptions).map((o) => o.value), events]).toEqual([['pear'], ['input', 'change']]);
    await mc.executeTool(pick, { fruits: ['pear'] });
    expect(events).toEqual(['input', 'change']);
    await expect(mc.executeTool(pick, { fruits: 'pear' })).rejects.toThrow('Invalid value "pear" for parameter fruits');
  });

  it('checks every value before it fills any, and names an unknown parameter as native does', async () => {
    const { mc, tool } = withForms(`<form id="f" toolname="fill" tooldescription="Fills" toolautosubmit>
      <input name="text" id="text"><input type="checkbox" name="box" id="box"></form>`);
    const fill = await tool('fill');
    await expect(mc.executeTool(fill, { text: 'new', box: 'maybe' })).rejects.toThrow('Invalid value "maybe" for parameter box');
    expect((document.getElementById('text') as HTMLInputElement).value).toBe('');
    await expect(mc.executeTool(fill, { colour: 'red' })).rejects.toThrow(
      'Input contains a parameter "colour" but there is no such parameter for the tool',
    );
  });

  it('reads numbers and booleans as the text native makes of them, for text, selects and radio buttons alike', async () => {
    const { mc, tool, form } = withForms(`<form id="f" toolname="loose" tooldescription="Loose" toolautosubmit>
      <input name="text" id="text"><select name="qty" id="qty"><option value="1">One</option><option value="2.5">More</option></select>
      <input type="radio" name="flag" value="true" id="yes"><input type="radio" name="flag" value="false">
      <select name="sizes" id="sizes" multiple><option value="1">S</option><option value="2">M</option></select></form>`);
    form('f').addEventListener('submit', (event) => {
      event.preventDefault();
      (event as SubmitEvent & Record<string, any>).respondWith('done');
    });
    const loose = await tool('loose');
    await mc.executeTool(loose, { text: 2147483648, qty: 2.5, flag: true, sizes: [2, 1] });
    const value = (id: string) => (document.getElementById(id) as HTMLInputElement).value;
    expect([value('text'), value('qty'), (document.getElementById('yes') as HTMLInputElement).checked]).toEqual([
      '2.14748e+9',
      '2.5',
      true,
    ]);
    expect(Array.from((document.getElementById('sizes') as HTMLSelectElement).selectedOptions).map((o) => o.value)).toEqual(['1', '2']);
    await expect(mc.executeTool(loose, { qty: 1e21 })).rejects.toThrow('Invalid value "1.00000e+21" for parameter qty');
    await expect(mc.executeTool(loose, { sizes: [1, '1'] })).rejects.toThrow('Invalid value for parameter sizes');
    await expect(mc.executeTool(loose, { text: null })).rejects.toThrow('Invalid value for parameter text');
  });

  it('counts buttons and file fields among the names, and refuses a value for a name that is no parameter', async () => {
    const { mc, tool } = withForms(`<form id="f" toolname="names" tooldescription="Names" toolautosubmit>
      <input name="q"><button type="button" name="q">Q</button><input type="hidden" name="secret"><input type="file" name="upload">
      <input name="off" disabled><input name="kept"><button type="submit" name="go">Go</button></form>`);
    const names = await tool('names');
    expect(Object.keys((names.inputSchema as { properties: object }).properties)).toEqual(['kept']);
    for (const key of ['q', 'secret', 'upload', 'go']) {
      await expect(mc.executeTool(names, { [key]: 'x' })).rejects.toThrow(`Invalid value "x" for parameter ${key}`);
    }
    await expect(mc.executeTool(names, { off: 'x' })).rejects.toThrow('Input contains a parameter "off" but there is no such parameter');
  });

  it('validates before the agent’s submit unless the form says novalidate, naming every invalid field in native’s words', async () => {
    const { mc, tool, form } = withForms(`<form id="f" toolname="checked" tooldescription="Checked" toolautosubmit>
      <input name="a" required><textarea name="b" required></textarea><button type="submit" name="go">Go</button></form>`);
    form('f').addEventListener('submit', (event) => {
      event.preventDefault();
      (event as SubmitEvent & Record<string, any>).respondWith('sent');
    });
    const checked = await tool('checked');
    const failed = await mc.executeTool(checked, {}).catch((error: Error) => error.message);
    expect(failed).toMatch(/Form validation failed: a: .+\. b: .+\. $/);
    form('f').noValidate = true;
    expect(await mc.executeTool(await tool('checked'), {})).toBe('sent');
  });

  it('declares options as anyOf beside enum, a number’s step as multipleOf, description last, as native', async () => {
    const { tool } = withForms(`<form id="f" toolname="kinds" tooldescription="Kinds">
      <label><input type="radio" name="size" value="s"> Small</label><input type="radio" name="size" value="l">
      <label>Fruit <select name="fruit"><option value="a">Apple</option></select></label>
      <input name="count" type="number" min="2" step="2" toolparamdescription="How many">
      <input name="odd" type="number" min="1" step="2"><input name="ro" readonly></form>`);
    expect(JSON.stringify((await tool('kinds')).inputSchema)).toBe(
      JSON.stringify({
        type: 'object',
        properties: {
          size: {
            type: 'string',
            anyOf: [
              { type: 'string', const: 's', title: 'Small' },
              { type: 'string', const: 'l' },
            ],
            enum: ['s', 'l'],
          },
          fruit: { type: 'string', anyOf: [{ type: 'string', const: 'a', title: 'Apple' }], enum: ['a'], description: 'Fruit' },
          count: { type: 'number', minimum: 2, multipleOf: 2, description: 'How many' },
          odd: { type: 'number', minimum: 1 },
        },
        required: [],
      }),
    );
  });

  it('rejects a waiting call with UnknownError when the person’s submit is prevented without an answer and the form removed in it, as native', async () => {
    const { mc, tool, form } = withForms(`<form id="f" toolname="wait" tooldescription="Waits">
      <input name="q"><button type="submit" id="go">Go</button></form>`);
    form('f').addEventListener('submit', (event) => {
      event.preventDefault();
      form('f').remove();
    });
    const call = mc.executeTool(await tool('wait'), { q: 'x' });
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    form('f').requestSubmit();
    await expect(call).rejects.toMatchObject({ name: 'UnknownError' });
  });

  it('ends a waiting call when the form’s definition changes, not when a value does', async () => {
    const { mc, tool, form } = withForms(`<form id="f" toolname="wait" tooldescription="Waits">
      <input name="q"><button type="submit" id="go">Go</button></form>`);
    const call = mc.executeTool(await tool('wait'), { q: 'x' });
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    const field = form('f').elements.namedItem('q') as HTMLInputElement;
    field.value = 'typed';
    // A field's description, not the form's: happy-dom reports a form's own mutations with a target other than the
    // form object the page holds (its forms are proxies), which no browser does (the form's own attributes are
    // covered in real browsers by tests/e2e/webmcp-conformance-forms.spec.ts).
    field.setAttribute('toolparamdescription', 'What to ask');
    await expect(call).rejects.toThrow('Tool execution cancelled, since tool definition was updated');
    expect(form('f').hasAttribute(FORM_ACTIVE_ATTRIBUTE)).toBe(false);
  });

  it('keeps a form registered when its definition changes again before its last registration settled', async () => {
    const { mc, tool, form } = withForms(`<form id="f" toolname="twice" tooldescription="Changes"><input name="q"></form>`);
    await tool('twice');
    const field = form('f').elements.namedItem('q') as HTMLInputElement;
    // The second change comes once the first is read, before the registration it started has resolved (that
    // takes a task): its abort rejects that registration, which must not take the newer one's place with it.
    field.setAttribute('toolparamdescription', 'One');
    for (let i = 0; i < 5; i++) await Promise.resolve();
    field.setAttribute('toolparamdescription', 'Two');
    await new Promise((resolve) => setTimeout(resolve, 20));
    field.setAttribute('toolparamdescription', 'Three');
    await vi.waitFor(async () =>
      expect((await mc.getTools()).map((t) => [t.name, (t.inputSchema as any)?.properties?.q?.description])).toEqual([['twice', 'Three']]),
    );
  });

  it('fills checkboxes sharing a name from an array of their values, and refuses anything for a name shared by other fields', async () => {
    const { mc, tool, form } = withForms(`<form id="f" toolname="shared" tooldescription="Shared" toolautosubmit>
      <input type="checkbox" name="boxes" value="a"><input type="checkbox" name="boxes" value="b">
      <input name="twice"><input name="twice"><button type="submit">Go</button></form>`);
    form('f').addEventListener('submit', (event) => {
      event.preventDefault();
      (event as SubmitEvent & Record<string, any>).respondWith('saved');
    });
    const shared = await tool('shared');
    const boxes = Array.from(form('f').querySelectorAll<HTMLInputElement>('[name=boxes]'));
    expect(await mc.executeTool(shared, { boxes: ['b'] })).toBe('saved');
    expect(boxes.map((box) => box.checked)).toEqual([false, true]);
    await expect(mc.executeTool(shared, { boxes: true })).rejects.toThrow('Invalid value "true" for parameter boxes');
    await expect(mc.executeTool(shared, { twice: 'x' })).rejects.toThrow('Invalid value "x" for parameter twice');
    expect(boxes.map((box) => box.checked)).toEqual([false, true]);
  });
});

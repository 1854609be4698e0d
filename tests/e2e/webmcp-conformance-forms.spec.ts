/**
 * WebMCP conformance (issue 23, item 7): declarative `<form toolname tooldescription>` tools, written from the
 * declarative explainer (webmachinelearning/webmcp, declarative-api-explainer.md; the spec's "Declarative WebMCP"
 * section is still a TODO), from what the public web-platform-tests' `webmcp/declarative/` files assert, and from
 * native Chromium 156 probed where neither says (docs/webmcp-conformance.md). Each test runs in the three projects
 * of playwright.config.ts: `reference` (native, no extension), `polyfill`, `native` (native with the extension).
 *
 * Native marks a running form with the pseudo-classes `:tool-form-active` and `:tool-submit-active`, which script
 * cannot add; the polyfill sets the attributes `data-tool-form-active` and `data-tool-submit-active` instead, and
 * `marks()` below reads whichever the browser has.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * A fixture page with helpers defined in it: `settle(promise)` (how a call ended: `['ok', value]` or
 * `['rejected', 'DOMException:UnknownError']`), `attempt(fn)` (`'ok'` or what it threw), `toolNamed(name)` (the
 * tool once listed) and `marks(form)` (whether the form is marked running, which of its controls as its submit control, whether any field
 * is marked).
 */
async function openPage(context: BrowserContext, url: string, path = 'forms-agent.html'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/${path}`);
  await page.evaluate(() => {
    const w = window as any;
    const nameOf = (e: any) => (e && typeof e === 'object' ? `${e.constructor.name}:${e.name}` : `${typeof e}:${String(e)}`);
    w.settle = (promise: Promise<unknown>) =>
      Promise.resolve(promise).then(
        (value) => ['ok', value],
        (e) => ['rejected', nameOf(e)],
      );
    w.attempt = (fn: () => void) => {
      try {
        fn();
        return 'ok';
      } catch (e) {
        return nameOf(e);
      }
    };
    w.toolNamed = async (name: string) => {
      const mc = (document as any).modelContext;
      for (;;) {
        const tool = (await mc.getTools()).find((t: { name: string }) => t.name === name);
        if (tool) return tool;
        await new Promise((resolve) => mc.addEventListener('toolchange', resolve, { once: true }));
      }
    };
    const pseudo = CSS.supports('selector(:tool-form-active)');
    const formActive = (el: Element) => (pseudo ? el.matches(':tool-form-active') : el.hasAttribute('data-tool-form-active'));
    const submitActive = (el: Element) => (pseudo ? el.matches(':tool-submit-active') : el.hasAttribute('data-tool-submit-active'));
    w.marks = (form: HTMLFormElement) => ({
      form: formActive(form),
      submit: Array.from(form.elements)
        .filter(submitActive)
        .map((el) => el.id),
      fields: Array.from(form.querySelectorAll('input:not([type=submit])')).some((el) => formActive(el) || submitActive(el)),
    });
  });
  return page;
}

test('a person’s submit sees agentInvoked false and respondWith() throwing InvalidStateError, from the first submit of a page that never used WebMCP', async ({
  context,
  server,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/forms-person.html`);
  expect(await page.evaluate(() => (window as any).personSubmits)).toEqual([
    { agentInvoked: false, respondWith: 'DOMException:InvalidStateError', noArgument: 'TypeError:TypeError' },
  ]);
});

test('SubmitEvent has agentInvoked and respondWith() as native defines them; a person’s submit of a tool form is not the agent’s', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  await page.evaluate(() => {
    const w = window as any;
    w.seen = [];
    w.onAgentSubmit = (form: HTMLFormElement, event: any) => {
      event.preventDefault();
      w.seen.push({ form: form.id, agentInvoked: event.agentInvoked, respondWith: w.attempt(() => event.respondWith(Promise.resolve(1))) });
    };
  });
  // The person presses the button of a tool form nobody called.
  await page.getByRole('button', { name: 'Send' }).click();
  const out = await page.evaluate(() => {
    const w = window as any;
    const proto = SubmitEvent.prototype as any;
    const getter = Object.getOwnPropertyDescriptor(proto, 'agentInvoked');
    const method = Object.getOwnPropertyDescriptor(proto, 'respondWith');
    const made = new SubmitEvent('submit') as any;
    return {
      seen: w.seen,
      agentInvoked: {
        get: typeof getter?.get,
        set: typeof getter?.set,
        enumerable: getter?.enumerable,
        configurable: getter?.configurable,
      },
      getterName: getter?.get?.name,
      respondWith: {
        value: typeof method?.value,
        writable: method?.writable,
        enumerable: method?.enumerable,
        configurable: method?.configurable,
        name: method?.value?.name,
        length: method?.value?.length,
      },
      onPrototype: w.attempt(() => proto.agentInvoked),
      onAnotherObject: w.attempt(() => proto.respondWith.call({}, Promise.resolve(1))),
      constructed: made.agentInvoked,
      constructedRespondWith: w.attempt(() => made.respondWith(Promise.resolve(1))),
      ownKeys: Object.keys(made),
    };
  });
  expect(out).toEqual({
    seen: [{ form: 'manual', agentInvoked: false, respondWith: 'DOMException:InvalidStateError' }],
    agentInvoked: { get: 'function', set: 'undefined', enumerable: true, configurable: true },
    getterName: 'get agentInvoked',
    respondWith: { value: 'function', writable: true, enumerable: true, configurable: true, name: 'respondWith', length: 1 },
    onPrototype: 'TypeError:TypeError',
    onAnotherObject: 'TypeError:TypeError',
    constructed: false,
    constructedRespondWith: 'DOMException:InvalidStateError',
    ownKeys: ['isTrusted'],
  });
});

test('the agent’s submit: respondWith() answers only while the event is dispatched and after preventDefault(); preventDefault() alone rejects with UnknownError', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const tool = await w.toolNamed('answer');
    let late: Promise<unknown> = Promise.resolve();
    const seen: unknown[] = [];
    const silentRejection = () => {
      const rejected = Promise.reject(new Error('no'));
      rejected.catch(() => {});
      return rejected;
    };
    // What the page's submit handler does, test by test.
    const handlers: Record<string, (form: HTMLFormElement, event: any) => void> = {
      answers: (_form, event) => {
        seen.push({ agentInvoked: event.agentInvoked, submitter: event.submitter?.id, cancelable: event.cancelable });
        event.preventDefault();
        event.respondWith(Promise.resolve({ ok: true }));
      },
      'a plain value': (_form, event) => {
        event.preventDefault();
        event.respondWith('plain');
      },
      'the last answer wins': (_form, event) => {
        event.preventDefault();
        event.respondWith(Promise.resolve('first'));
        event.respondWith(Promise.resolve('second'));
      },
      'in a microtask of the dispatch': (_form, event) => {
        event.preventDefault();
        Promise.resolve().then(() => event.respondWith(Promise.resolve('from a microtask')));
      },
      'preventDefault alone': (_form, event) => event.preventDefault(),
      'in a later task': (_form, event) => {
        event.preventDefault();
        late = new Promise((resolve) => setTimeout(() => resolve(w.attempt(() => event.respondWith(Promise.resolve('too late')))), 0));
      },
      'without preventDefault': (_form, event) => seen.push(w.attempt(() => event.respondWith(Promise.resolve('unprevented')))),
      'before preventDefault': (_form, event) => {
        seen.push(w.attempt(() => event.respondWith(Promise.resolve('early'))));
        event.preventDefault();
      },
      'a rejected answer': (_form, event) => {
        event.preventDefault();
        event.respondWith(silentRejection());
      },
      'form.submit() instead': (form, event) => {
        event.preventDefault();
        form.submit();
      },
    };
    const out: Record<string, unknown> = {};
    for (const [name, handler] of Object.entries(handlers)) {
      w.onAgentSubmit = handler;
      seen.length = 0;
      const result = await w.settle(mc.executeTool(tool, { q: name }));
      out[name] = seen.length ? [result, ...seen] : result;
      if (name === 'in a later task') out[name] = [result, await late];
    }
    return out;
  });
  expect(out).toEqual({
    answers: [['ok', '{"ok":true}'], { agentInvoked: true, submitter: 'answer-submit', cancelable: true }],
    'a plain value': ['ok', 'plain'],
    'the last answer wins': ['ok', 'second'],
    'in a microtask of the dispatch': ['ok', 'from a microtask'],
    'preventDefault alone': ['rejected', 'DOMException:UnknownError'],
    'in a later task': [['rejected', 'DOMException:UnknownError'], 'DOMException:InvalidStateError'],
    // Nobody prevented the submission: the form submits (into its frame here), and the call ends as navigated.
    'without preventDefault': [['ok', null], 'DOMException:InvalidStateError'],
    'before preventDefault': [['rejected', 'DOMException:UnknownError'], 'DOMException:InvalidStateError'],
    'a rejected answer': ['rejected', 'DOMException:UnknownError'],
    'form.submit() instead': ['ok', null],
  });
});

test('checkbox values are read as native reads them: booleans, integers, and "true" "false" "1" "0" in any case; anything else is refused', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  /** Each value, and what it makes the checkbox: checked, unchecked, or refused. */
  const table: [unknown, boolean | 'refused'][] = [
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    [2, true],
    [-1, true],
    [0.5, 'refused'],
    ['true', true],
    ['FALSE', false],
    ['1', true],
    ['0', false],
    ['on', 'refused'],
    ['off', 'refused'],
    ['', 'refused'],
    ['yes', 'refused'],
    ['check1', 'refused'],
    [' true', 'refused'],
    ['2', 'refused'],
    [null, 'refused'],
    [[], 'refused'],
    [{}, 'refused'],
  ];
  const rows = await page.evaluate(
    async (values) => {
      const w = window as any;
      const mc = (document as any).modelContext;
      const tool = await w.toolNamed('controls');
      const box = document.getElementById('box') as HTMLInputElement;
      const events: string[] = [];
      box.addEventListener('input', () => events.push('input'));
      box.addEventListener('change', () => events.push('change'));
      const rows: unknown[] = [];
      for (const start of [false, true]) {
        for (const value of values) {
          box.checked = start;
          events.length = 0;
          const [outcome, detail] = await w.settle(mc.executeTool(tool, { box: value }));
          rows.push([start, value, outcome === 'ok' ? 'ok' : detail, box.checked, events.join(' ')]);
        }
      }
      return rows;
    },
    table.map(([value]) => value),
  );
  const expected = [false, true].flatMap((start) =>
    table.map(([value, makes]) =>
      makes === 'refused'
        ? [start, value, 'DOMException:UnknownError', start, '']
        : // As native: `input` only when the box changes, `change` every time.
          [start, value, 'ok', makes, makes === start ? 'change' : 'input change'],
    ),
  );
  expect(rows).toEqual(expected);
});

test('loose values are read as native reads them: numbers as Chromium prints them, booleans as words, each field taking what its kind takes, in native’s words when it refuses', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url, 'forms-loose.html');
  /** [parameter, value, what native answers ('ok' or its words), what the field then holds, the events it got]. */
  const table: [string, unknown, string, unknown, string][] = [
    // Text takes strings, numbers and booleans. Numbers are printed as Chromium prints them: int32 integers in
    // full, any other number with six significant digits (exponents unpadded).
    ['text', 1, 'ok', '1', 'input change'],
    ['text', -2147483648, 'ok', '-2147483648', 'input change'],
    ['text', 2147483648, 'ok', '2.14748e+9', 'input change'],
    ['text', 2.5, 'ok', '2.5', 'input change'],
    ['text', 1234.5678, 'ok', '1234.57', 'input change'],
    ['text', 100000.5, 'ok', '100001', 'input change'],
    ['text', 0.0000125, 'ok', '0.0000125', 'input change'],
    ['text', 1e-7, 'ok', '1.00000e-7', 'input change'],
    ['text', 1e21, 'ok', '1.00000e+21', 'input change'],
    ['text', true, 'ok', 'true', 'input change'],
    // The field's own sanitising counts: a text that comes out empty is refused, one that comes out as the field's
    // value changes nothing.
    ['text', 'a\nb', 'ok', 'ab', 'input change'],
    ['text', '\n', 'Invalid value "\n" for parameter text', '', ''],
    ['text', null, 'Invalid value for parameter text', '', ''],
    ['text', [1], 'Invalid value for parameter text', '', ''],
    ['text', { a: 1 }, 'Invalid value for parameter text', '', ''],
    ['email', ' a@b.example ', 'ok', 'a@b.example', 'input change'],
    ['email', ' ', 'Invalid value " " for parameter email', '', ''],
    ['note', 'x\r\ny', 'ok', 'x\ny', 'input change'],
    ['note', 5, 'ok', '5', 'input change'],
    // A number field takes a valid floating-point number only, never an empty one; a range anything but "".
    ['count', '1e3', 'ok', '1e3', 'input change'],
    ['count', '.5', 'ok', '.5', 'input change'],
    ['count', 1e21, 'ok', '1.00000e+21', 'input change'],
    ['count', ' 1', 'Invalid value " 1" for parameter count', '', ''],
    ['count', '+1', 'Invalid value "+1" for parameter count', '', ''],
    ['count', '', 'Invalid value "" for parameter count', '', ''],
    ['count', true, 'Invalid value "true" for parameter count', '', ''],
    ['level', 7, 'ok', '7', 'input change'],
    ['level', 11, 'ok', '10', 'input change'],
    ['level', '5.5', 'ok', '6', 'input change'],
    ['level', 'abc', 'ok', '5', ''],
    ['level', true, 'ok', '5', ''],
    ['level', '', 'Invalid value "" for parameter level', '5', ''],
    ['day', '2024-01-02', 'ok', '2024-01-02', 'input change'],
    ['day', '2024-1-2', 'Invalid value "2024-1-2" for parameter day', '', ''],
    ['day', 20240102, 'Invalid value "20240102" for parameter day', '', ''],
    ['colour', 'red', 'ok', '#ff0000', 'input change'],
    ['colour', '#000000', 'ok', '#000000', ''],
    ['colour', 'no colour', 'ok', '#000000', ''],
    // A hidden field with a description takes text and fires nothing; one without is no parameter, nor is a file
    // field, a name a button shares, or a submit button; a field a disabled fieldset holds is not there at all.
    ['token', 5, 'ok', '5', ''],
    ['secret', 'x', 'Invalid value "x" for parameter secret', '', ''],
    ['upload', 'x', 'Invalid value "x" for parameter upload', '', ''],
    ['shared', 'x', 'Invalid value "x" for parameter shared', [], ''],
    // An image button is not in form.elements, but shares its name all the same.
    ['picture', 'x', 'Invalid value "x" for parameter picture', '', ''],
    ['go', 'x', 'Invalid value "x" for parameter go', '', ''],
    ['off', 'x', 'Input contains a parameter "off" but there is no such parameter for the tool', '', ''],
    // A checkbox: booleans, int32 integers (0 unchecks), "true" "false" "1" "0" in any case; no other number.
    ['agree', 2147483647, 'ok', true, 'input change'],
    ['agree', 2147483648, 'Invalid value "2.14748e+9" for parameter agree', false, ''],
    ['agree', 1.5, 'Invalid value "1.5" for parameter agree', false, ''],
    ['agree', 'TRUE', 'ok', true, 'input change'],
    // Selects and radio buttons: the value's text must be one of theirs exactly.
    ['qty', 2, 'ok', '2', 'input change'],
    ['qty', 2.5, 'ok', '2.5', 'input change'],
    ['qty', 1, 'ok', '1', ''],
    ['qty', '02', 'Invalid value "02" for parameter qty', '1', ''],
    ['qty', true, 'Invalid value "true" for parameter qty', '1', ''],
    ['flag', false, 'ok', 'false', 'input change'],
    ['flag', 'FALSE', 'Invalid value "FALSE" for parameter flag', 'true', ''],
    ['stars', 2, 'ok', ['2'], 'input change'],
    ['stars', 3, 'Invalid value "3" for parameter stars', [], ''],
    ['stars', true, 'Invalid value "true" for parameter stars', [], ''],
    // A <select multiple> and checkboxes sharing a name: an array of such values, each once.
    ['sizes', [1, true], 'ok', ['1', 'true'], 'input change'],
    ['sizes', [1, '1'], 'Invalid value for parameter sizes', [], ''],
    ['sizes', [null], 'Invalid value for parameter sizes', [], ''],
    ['sizes', 2, 'Invalid value "2" for parameter sizes', [], ''],
    ['days', [2, 1], 'ok', ['1', '2'], 'input change input change'],
    ['days', ['1', '1'], 'Invalid value for parameter days', [], ''],
  ];
  const out = await page.evaluate(async (rows) => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const tool = await w.toolNamed('loose');
    const form = document.getElementById('loose') as HTMLFormElement;
    const holds = (name: string) => {
      const found = form.elements.namedItem(name);
      if (found instanceof RadioNodeList)
        return Array.from(found as unknown as HTMLInputElement[])
          .filter((e) => e.checked)
          .map((e) => e.value);
      if (found instanceof HTMLSelectElement && found.multiple) return Array.from(found.selectedOptions).map((o) => o.value);
      if (found instanceof HTMLInputElement && found.type === 'checkbox') return found.checked;
      return (found as HTMLInputElement | null)?.value ?? '';
    };
    const answers: unknown[] = [];
    for (const [name, value] of rows) {
      form.reset();
      const events: string[] = [];
      const listen = (event: Event) => {
        if ((event.target as HTMLInputElement).name === name) events.push(event.type);
      };
      form.addEventListener('input', listen);
      form.addEventListener('change', listen);
      let answer: string;
      try {
        await mc.executeTool(tool, { [name]: value });
        answer = 'ok';
      } catch (e: any) {
        // The polyfill puts its prefix before native's words (docs/webmcp-conformance.md).
        answer = `${e.name}: ${String(e.message).replace('Tool was executed but the invocation failed: ', '')}`;
      }
      form.removeEventListener('input', listen);
      form.removeEventListener('change', listen);
      answers.push([name, value, answer, holds(name), events.join(' ')]);
    }
    return { answers, parameters: Object.keys(tool.inputSchema.properties) };
  }, table);
  expect(out.answers).toEqual(
    table.map(([name, value, answer, holds, events]) => [name, value, answer === 'ok' ? 'ok' : `UnknownError: ${answer}`, holds, events]),
  );
  expect(out.parameters).toEqual([
    'text',
    'count',
    'level',
    'email',
    'day',
    'colour',
    'note',
    'token',
    'agree',
    'qty',
    'flag',
    'sizes',
    'stars',
    'days',
  ]);
});

test('a form is validated before its agent submit as native does it: not with novalidate or formnovalidate; every invalid field named, in native’s words', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url, 'forms-loose.html');
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const run = async (name: string, input: Record<string, unknown>) => {
      try {
        return ['ok', await mc.executeTool(await w.toolNamed(name), input)];
      } catch (e: any) {
        return [e.name, String(e.message).replace('Tool was executed but the invocation failed: ', '')];
      }
    };
    return {
      invalid: await run('checked', { count: 2.5, email: 'x' }),
      valid: await run('checked', { count: 2, email: 'a@b.example', note: 'n', pick: 'x', '': 'y' }),
      novalidate: await run('loose', { count: 2.5, email: 'x' }),
      formnovalidate: await run('unchecked', { count: 2.5 }),
    };
  });
  expect(out).toEqual({
    invalid: [
      'UnknownError',
      'Form validation failed: count: Please enter a valid value. The two nearest valid values are 2 and 3.. ' +
        "email: Please include an '@' in the email address. 'x' is missing an '@'.. " +
        'note: Please fill out this field.. pick: Please select an item in the list.. : Please fill out this field.. ',
    ],
    valid: ['ok', 'checked sent'],
    novalidate: ['ok', 'loose sent'],
    formnovalidate: ['ok', 'unchecked sent'],
  });
});

test('a <select multiple> takes an array of its option values, with one input and one change when the selection changes', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const tool = await w.toolNamed('controls');
    const fruits = document.getElementById('fruits') as HTMLSelectElement;
    const events: string[] = [];
    fruits.addEventListener('input', () => events.push('input'));
    fruits.addEventListener('change', () => events.push('change'));
    const schema = tool.inputSchema.properties.fruits;
    const out: Record<string, unknown> = {
      schema: { type: schema.type, uniqueItems: schema.uniqueItems, items: { type: schema.items.type, enum: schema.items.enum } },
    };
    for (const [label, value] of [
      ['two', ['apple', 'banana']],
      ['the same again', ['apple', 'banana']],
      ['the same, reordered', ['banana', 'apple']],
      ['none', []],
      ['a string', 'orange'],
      ['an unknown option', ['kiwi']],
      ['a number', [1]],
    ] as const) {
      events.length = 0;
      const [outcome, detail] = await w.settle(mc.executeTool(tool, { fruits: value }));
      out[label] = [outcome === 'ok' ? 'ok' : detail, Array.from(fruits.selectedOptions).map((o) => o.value), events.join(' ')];
    }
    return out;
  });
  expect(out).toEqual({
    schema: { type: 'array', uniqueItems: true, items: { type: 'string', enum: ['apple', 'orange', 'banana'] } },
    two: ['ok', ['apple', 'banana'], 'input change'],
    'the same again': ['ok', ['apple', 'banana'], ''],
    'the same, reordered': ['ok', ['apple', 'banana'], ''],
    none: ['ok', [], 'input change'],
    'a string': ['DOMException:UnknownError', [], ''],
    'an unknown option': ['DOMException:UnknownError', [], ''],
    'a number': ['DOMException:UnknownError', [], ''],
  });
});

test('every value is checked before any field is filled; text, selects and radio buttons take what native takes, with events only on a change', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const tool = await w.toolNamed('controls');
    const form = document.getElementById('controls') as HTMLFormElement;
    const events: string[] = [];
    for (const el of Array.from(form.elements)) {
      for (const type of ['input', 'change']) el.addEventListener(type, () => events.push(`${el.id}:${type}`));
    }
    const text = document.getElementById('text') as HTMLInputElement;
    const one = document.getElementById('one') as HTMLSelectElement;
    const large = document.getElementById('large') as HTMLInputElement;
    const out: Record<string, unknown> = {};
    for (const [label, input] of [
      ['text', { text: 'hello' }],
      ['the same text', { text: 'hello' }],
      ['a number as text', { text: 42 }],
      ['a boolean as text', { text: true }],
      ['null as text', { text: null }],
      ['an object as text', { text: { a: 1 } }],
      ['an option', { one: 'b' }],
      ['a number as an option', { one: 1 }],
      ['a radio button', { size: 'large' }],
      ['the same radio button', { size: 'large' }],
      ['an unknown radio value', { size: 'medium' }],
      ['an unknown parameter', { colour: 'red' }],
      ['one good, one wrong', { text: 'changed', box: 'maybe' }],
    ] as const) {
      events.length = 0;
      const [outcome, detail] = await w.settle(mc.executeTool(tool, input));
      out[label] = [outcome === 'ok' ? 'ok' : detail, events.join(' ')];
    }
    out.values = { text: text.value, one: one.value, large: large.checked };
    return out;
  });
  expect(out).toEqual({
    text: ['ok', 'text:input text:change'],
    'the same text': ['ok', ''],
    'a number as text': ['ok', 'text:input text:change'],
    'a boolean as text': ['ok', 'text:input text:change'],
    'null as text': ['DOMException:UnknownError', ''],
    'an object as text': ['DOMException:UnknownError', ''],
    'an option': ['ok', 'one:input one:change'],
    'a number as an option': ['DOMException:UnknownError', ''],
    'a radio button': ['ok', 'large:input large:change'],
    // As for a checkbox: `change` again, `input` only on a change.
    'the same radio button': ['ok', 'large:change'],
    'an unknown radio value': ['DOMException:UnknownError', ''],
    'an unknown parameter': ['DOMException:UnknownError', ''],
    'one good, one wrong': ['DOMException:UnknownError', ''],
    values: { text: 'true', one: 'b', large: true },
  });
});

test('the tool starts before toolactivated: the form is filled (and, with toolautosubmit, submitted) when toolactivated fires', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const order = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const tool = await w.toolNamed('answer');
    const form = document.getElementById('answer') as HTMLFormElement;
    const order: string[] = [];
    const q = form.elements.namedItem('q') as HTMLInputElement;
    q.addEventListener('input', () => order.push('input'));
    q.addEventListener('change', () => order.push('change'));
    w.onAgentSubmit = (_form: HTMLFormElement, event: any) => {
      order.push('submit');
      event.preventDefault();
      event.respondWith(Promise.resolve('done'));
    };
    mc.addEventListener('toolactivated', (e: any) => order.push(`toolactivated ${e.toolName} ${q.value}`));
    const result = await mc.executeTool(tool, { q: 'filled' });
    return [...order, result];
  });
  expect(order).toEqual(['input', 'change', 'submit', 'toolactivated answer filled', 'done']);
});

test('a running form is marked (natively :tool-form-active and :tool-submit-active; under the polyfill data-tool-form-active and data-tool-submit-active) until its call ends', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const answer = document.getElementById('answer') as HTMLFormElement;
    const manual = document.getElementById('manual') as HTMLFormElement;
    const out: Record<string, unknown> = { before: [w.marks(answer), w.marks(manual)] };
    mc.addEventListener('toolactivated', (e: any) => {
      out[`at toolactivated of ${e.toolName}`] = w.marks(e.toolName === 'answer' ? answer : manual);
    });
    mc.addEventListener('toolcancel', (e: any) => {
      out[`at toolcancel of ${e.toolName}`] = w.marks(manual);
    });

    // With toolautosubmit: marked from the fill through the submit event until the answer settles.
    let answerNow: (value: string) => void = () => {};
    w.onAgentSubmit = (form: HTMLFormElement, event: any) => {
      out['in the submit event'] = w.marks(form);
      event.preventDefault();
      event.respondWith(new Promise((resolve) => (answerNow = resolve)));
    };
    const answered = mc.executeTool(await w.toolNamed('answer'), { q: 'x' });
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    answerNow('done');
    out.answered = await answered;
    out['after the answer'] = w.marks(answer);

    // Without toolautosubmit: marked while it waits for the person; an abort or a reset ends it.
    const manualTool = await w.toolNamed('manual');
    const controller = new AbortController();
    const aborted = w.settle(mc.executeTool(manualTool, { m: 'a' }, { signal: controller.signal }));
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    const cancelled = new Promise((resolve) => mc.addEventListener('toolcancel', resolve, { once: true }));
    controller.abort();
    out.aborted = await aborted;
    await cancelled;
    out['after the abort'] = w.marks(manual);
    const reset = w.settle(mc.executeTool(manualTool, { m: 'b' }));
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    manual.reset();
    out.reset = await reset;
    out['after the reset'] = w.marks(manual);
    return out;
  });
  const none = { form: false, submit: [], fields: false };
  expect(out).toEqual({
    before: [none, none],
    'in the submit event': { form: true, submit: ['answer-submit'], fields: false },
    'at toolactivated of answer': { form: true, submit: ['answer-submit'], fields: false },
    answered: 'done',
    'after the answer': none,
    'at toolactivated of manual': { form: true, submit: ['manual-submit'], fields: false },
    'at toolcancel of manual': none,
    aborted: ['rejected', 'DOMException:AbortError'],
    'after the abort': none,
    // As native: resetting the form cancels its call.
    reset: ['rejected', 'DOMException:UnknownError'],
    'after the reset': none,
  });
});

test('a page’s selectors and style sheets read :tool-form-active and :tool-submit-active as native does: from toolactivated until the call ends', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const manual = document.getElementById('manual') as HTMLFormElement;
    const submit = document.getElementById('manual-submit') as HTMLInputElement;
    const field = manual.elements.namedItem('m') as HTMLInputElement;
    // Rules the parser of a browser without the pseudo-classes would drop, in a <style> and through insertRule().
    const style = document.createElement('style');
    style.textContent =
      '#manual:tool-form-active { outline: 3px solid rgb(1, 2, 3); } form:not(:tool-form-active) input { color: rgb(0, 0, 9); }';
    document.head.append(style);
    const inserted = new CSSStyleSheet();
    inserted.insertRule(':tool-submit-active { color: rgb(4, 5, 6); }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, inserted];
    const manualTool = await w.toolNamed('manual');
    const ids = (selector: string) => Array.from(document.querySelectorAll(selector), (e) => e.id);
    const now = () => ({
      form: ids(':tool-form-active'),
      submit: ids(':tool-submit-active'),
      others: ids('form:not(:tool-form-active)'),
      matches: [manual.matches(':tool-form-active'), submit.matches(':TOOL-SUBMIT-ACTIVE'), field.matches(':tool-form-active')],
      closest: field.closest(':tool-form-active')?.id ?? null,
      styled: [getComputedStyle(manual).outlineColor, getComputedStyle(submit).color, getComputedStyle(field).color],
    });
    const out: Record<string, unknown> = {
      supports: CSS.supports('selector(:tool-form-active)') && CSS.supports('selector(:tool-submit-active)'),
    };
    out.before = now();
    field.addEventListener('input', () => (out['in the fill'] = now()), { once: true });
    let answer: (value: string) => void = () => {};
    w.onAgentSubmit = (_form: HTMLFormElement, event: any) => {
      out['in the person’s submit'] = now();
      event.preventDefault();
      event.respondWith(new Promise((resolve) => (answer = resolve)));
    };
    const call = w.settle(mc.executeTool(manualTool, { m: 'a' }));
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    out['at toolactivated'] = now();
    submit.click();
    await new Promise((resolve) => setTimeout(resolve));
    out['until the answer'] = now();
    answer('done');
    out.call = await call;
    out['after the answer'] = now();
    // Removed while it waits: at once no longer matched.
    const removed = w.settle(mc.executeTool(manualTool, { m: 'b' }));
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    manual.remove();
    out['once removed'] = [manual.matches(':tool-form-active'), submit.matches(':tool-submit-active')];
    out.removed = await removed;
    return out;
  });
  const idle = {
    form: [],
    submit: [],
    others: ['answer', 'controls', 'manual'],
    matches: [false, false, false],
    closest: null,
    // The submit control is an input too.
    styled: ['rgb(0, 0, 0)', 'rgb(0, 0, 9)', 'rgb(0, 0, 9)'],
  };
  const running = {
    form: ['manual'],
    submit: ['manual-submit'],
    others: ['answer', 'controls'],
    matches: [true, true, false],
    closest: 'manual',
    styled: ['rgb(1, 2, 3)', 'rgb(4, 5, 6)', 'rgb(0, 0, 0)'],
  };
  expect(out).toEqual({
    supports: true,
    before: idle,
    // Native marks the form after its fill, when the tool has started.
    'in the fill': idle,
    'at toolactivated': running,
    'in the person’s submit': running,
    // Until the promise given to respondWith() settles (explainer, "Pseudo-classes").
    'until the answer': running,
    call: ['ok', 'done'],
    'after the answer': idle,
    'once removed': [false, false],
    removed: ['rejected', 'DOMException:UnknownError'],
  });
});

test('removing a form ends a call that waits for its submit with UnknownError; a call its submit event answered keeps the answer', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    // The explainer ("toolactivated and toolcanceled events"): toolcancel "does not fire when the site itself
    // cancels the tool, due to removing the form element or changing its name or description" (issue 36 item 2).
    const cancels: string[] = [];
    mc.addEventListener('toolcancel', (e: any) => cancels.push(e.toolName));
    const waiting = w.settle(mc.executeTool(await w.toolNamed('manual'), { m: 'x' }));
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    document.getElementById('manual')?.remove();
    w.onAgentSubmit = (form: HTMLFormElement, event: any) => {
      event.preventDefault();
      event.respondWith(Promise.resolve('answered'));
      form.remove();
    };
    const out = { waiting: await waiting, answered: await w.settle(mc.executeTool(await w.toolNamed('answer'), { q: 'x' })) };
    // The second call settles tasks after the first ended: a toolcancel for the removal would have come by then.
    return { ...out, cancels };
  });
  expect(out).toEqual({ waiting: ['rejected', 'DOMException:UnknownError'], answered: ['ok', 'answered'], cancels: [] });
});

test('an unrelated form’s submission and removal leave a call that waits for its form’s submit waiting, as native’s: the person’s submit still answers it (issue 46)', async ({
  context,
  server,
}) => {
  const out: Record<string, unknown> = {};
  for (const way of ['a plain form submitted, then removed', 'another tool form’s agent call answered, then its form removed']) {
    const page = await openPage(context, server.url);
    out[way] = await page.evaluate(async (how) => {
      const w = window as any;
      const mc = (document as any).modelContext;
      const cancels: string[] = [];
      mc.addEventListener('toolcancel', (e: any) => cancels.push(e.toolName));
      const plain = document.createElement('form');
      plain.innerHTML = '<input name="x"><button>Go</button>';
      const plainSubmits: boolean[] = [];
      plain.addEventListener('submit', (e) => {
        plainSubmits.push((e as any).agentInvoked);
        e.preventDefault();
      });
      document.body.append(plain);
      const waiting = w.settle(mc.executeTool(await w.toolNamed('manual'), { m: 'x' }));
      await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
      let other: unknown;
      if (how.startsWith('a plain form')) {
        plain.requestSubmit();
        plain.remove();
      } else {
        w.onAgentSubmit = (form: HTMLFormElement, event: any) => {
          event.preventDefault();
          event.respondWith(Promise.resolve(`${form.id} done`));
          if (form.id === 'answer') form.remove();
        };
        other = await w.settle(mc.executeTool(await w.toolNamed('answer'), { q: 'x' }));
      }
      // Both browsers have seen it all once a list has come back: the call still waits, marked, and the person's
      // submit answers it.
      await mc.getTools();
      const stillMarked = w.marks(document.getElementById('manual')).form;
      (document.getElementById('manual-submit') as HTMLElement).click();
      return { waiting: await waiting, stillMarked, other, plainSubmits, cancels };
    }, way);
    await page.close();
  }
  expect(out).toEqual({
    'a plain form submitted, then removed': { waiting: ['ok', 'manual done'], stillMarked: true, plainSubmits: [false], cancels: [] },
    'another tool form’s agent call answered, then its form removed': {
      waiting: ['ok', 'manual done'],
      stillMarked: true,
      other: ['ok', 'answer done'],
      plainSubmits: [],
      cancels: [],
    },
  });
});

test('the person’s submit of a waiting form, prevented without an answer and the form removed in the handler, rejects the call with UnknownError (issue 46)', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const cancels: string[] = [];
    mc.addEventListener('toolcancel', (e: any) => cancels.push(e.toolName));
    const waiting = w.settle(mc.executeTool(await w.toolNamed('manual'), { m: 'x' }));
    await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
    const seen: boolean[] = [];
    w.onAgentSubmit = (form: HTMLFormElement, event: any) => {
      seen.push(event.agentInvoked);
      event.preventDefault();
      form.remove();
    };
    (document.getElementById('manual') as HTMLFormElement).requestSubmit();
    return { waiting: await waiting, seen, cancels };
  });
  expect(out).toEqual({ waiting: ['rejected', 'DOMException:UnknownError'], seen: [true], cancels: [] });
});

test('the input schema a form declares is native’s, field by field and key by key', async ({ context, server }) => {
  const page = await openPage(context, server.url, 'forms-schema.html');
  // An object, not the JSON text the spec's tool holds as its "input schema" (issue 36 item 2; Chromium 156 too).
  expect(await page.evaluate(async () => typeof (await (window as any).toolNamed('schema')).inputSchema)).toBe('object');
  const listed = await page.evaluate(async () => JSON.stringify((await (window as any).toolNamed('schema')).inputSchema, null, 1));
  const text = { type: 'string' };
  const choice = (value: string, title?: string) =>
    title === undefined ? { type: 'string', const: value } : { type: 'string', const: value, title };
  const dates = "Dates MUST be provided in 'YYYY-MM-DD' format.";
  const time = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
  const expected = {
    type: 'object',
    properties: {
      text,
      labelled: { type: 'string', description: 'Labelled text' },
      wrapped: { type: 'string', description: 'Wrapped label' },
      // toolparamtitle is not read; toolparamdescription wins over a label; labels are joined by "; ".
      titled: { type: 'string', description: 'A description' },
      both: { type: 'string', description: 'The description wins' },
      two: { type: 'string', description: 'One; Two' },
      aria: { type: 'string', description: 'Aria description' },
      req: text,
      pattern: { type: 'string', pattern: '[a-z]+' },
      email: { type: 'string', pattern: '.+@example\\.com' },
      url: text,
      tel: text,
      password: text,
      search: text,
      // multipleOf is the step (1 by default), where the step base (min) is a multiple of it.
      number: { type: 'number', multipleOf: 1 },
      half: { type: 'number', multipleOf: 0.5 },
      any: { type: 'number' },
      odd: { type: 'number', minimum: 1, maximum: 10 },
      even: { type: 'number', minimum: 4, multipleOf: 2 },
      threes: { type: 'number', maximum: 10, multipleOf: 3 },
      from_half: { type: 'number', minimum: 1.5 },
      bad_step: { type: 'number', multipleOf: 1 },
      digits: { type: 'number', multipleOf: 1, pattern: '\\d+' },
      range: { type: 'number', minimum: 0, maximum: 100, multipleOf: 1 },
      range_odd: { type: 'number', minimum: 1, maximum: 20 },
      box: { type: 'boolean' },
      box_required: { type: 'boolean' },
      box_readonly: { type: 'boolean' },
      // Radio buttons and options: each a {type, const, title} in anyOf, beside enum; a radio group has no description.
      size: { type: 'string', anyOf: [choice('s', 'Small'), choice('l', 'Large')], enum: ['s', 'l'] },
      plain: { type: 'string', anyOf: [choice('x'), choice('y')], enum: ['x', 'y'] },
      no_value: { type: 'string', anyOf: [choice('on')], enum: ['on'] },
      one: {
        type: 'string',
        anyOf: [choice('a', 'Option A'), choice('b', 'Option B'), choice('C text', 'C text')],
        enum: ['a', 'b', 'C text'],
      },
      labelled_select: {
        type: 'string',
        anyOf: [choice('v', 'Text'), choice('w', 'Disabled'), choice('e', '')],
        enum: ['v', 'w', 'e'],
        description: 'Select label',
      },
      grouped: { type: 'string', anyOf: [choice('g1', 'G one'), choice('g2', 'G two')], enum: ['g1', 'g2'] },
      empty: { type: 'string', anyOf: [], enum: [] },
      many: {
        type: 'array',
        items: { type: 'string', anyOf: [choice('m1', 'M one'), choice('m2', 'M two')], enum: ['m1', 'm2'] },
        uniqueItems: true,
        description: 'Pick some',
      },
      area: text,
      labelled_area: { type: 'string', description: 'Area label' },
      date: { type: 'string', format: 'date', description: dates },
      labelled_date: { type: 'string', format: 'date', description: `Date label (${dates})` },
      time: { type: 'string', format: time },
      labelled_time: { type: 'string', format: time, description: 'Time label' },
      datetime: { type: 'string', format: '^[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]$' },
      month: { type: 'string', format: '^[0-9]{4}-(0[1-9]|1[0-2])$' },
      week: { type: 'string', format: '^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$' },
      color: { type: 'string', format: '^#[0-9a-zA-Z]{6}$' },
      hidden_described: { type: 'string', description: 'A hidden field' },
      // The one control without a name.
      '': text,
      // Checkboxes sharing a name are a set of their values; two text fields sharing one are left out.
      boxes: {
        type: 'array',
        items: { type: 'string', anyOf: [choice('on'), choice('second')], enum: ['on', 'second'] },
        uniqueItems: true,
      },
      outside: text,
    },
    required: ['req', 'box_required', 'size', 'many'],
  };
  expect(listed).toBe(JSON.stringify(expected, null, 1));
});

test('checkboxes sharing a name take an array of their values, exactly those checked; a name shared by other fields takes nothing', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url, 'forms-schema.html');
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const tool = await w.toolNamed('shared');
    const boxes = Array.from(document.querySelectorAll<HTMLInputElement>('#shared [name=boxes]'));
    const out: Record<string, unknown> = {};
    for (const input of [
      { boxes: ['a'] },
      { boxes: ['b', 'a'] },
      { boxes: [] },
      { boxes: 'a' },
      { boxes: true },
      { boxes: ['c'] },
      { twice: 'x' },
    ]) {
      for (const box of boxes) box.checked = false;
      const [, detail] = await w.settle(mc.executeTool(tool, input));
      out[JSON.stringify(input)] = [detail, boxes.map((box) => box.checked)];
    }
    return out;
  });
  const refused = ['DOMException:UnknownError', [false, false]];
  expect(out).toEqual({
    '{"boxes":["a"]}': ['saved', [true, false]],
    '{"boxes":["b","a"]}': ['saved', [true, true]],
    '{"boxes":[]}': ['saved', [false, false]],
    '{"boxes":"a"}': refused,
    '{"boxes":true}': refused,
    '{"boxes":["c"]}': refused,
    '{"twice":"x"}': refused,
  });
});

test('changing a form’s definition (its name, title, description, toolautosubmit or fields) ends its waiting call with UnknownError; its values do not', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const manual = document.getElementById('manual') as HTMLFormElement;
    const field = manual.elements.namedItem('m') as HTMLInputElement;
    const log: string[] = [];
    mc.addEventListener('toolcancel', () => log.push('toolcancel'));
    const changes: Record<string, () => void> = {
      'the same description': () => manual.setAttribute('tooldescription', manual.getAttribute('tooldescription') as string),
      'a field’s value': () => (field.value = 'typed'),
      'the description': () => manual.setAttribute('tooldescription', 'Changed'),
      'the title': () => manual.setAttribute('tooltitle', 'A title'),
      toolautosubmit: () => manual.toggleAttribute('toolautosubmit'),
      'a new field': () => manual.prepend(Object.assign(document.createElement('input'), { name: 'extra' })),
      'a field’s description': () => field.setAttribute('toolparamdescription', 'What to send'),
      'a field becoming required': () => field.toggleAttribute('required'),
      'the name': () => manual.setAttribute('toolname', 'renamed'),
    };
    const out: Record<string, unknown> = {};
    for (const [label, change] of Object.entries(changes)) {
      log.length = 0;
      const call = w.settle(mc.executeTool(await w.toolNamed(manual.getAttribute('toolname')), { m: 'x' }));
      await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
      change();
      if (label === 'the same description' || label === 'a field’s value') {
        // Once another form's change has been seen (its toolchange), this one's would have been too: the call still
        // waits, and the person's submit answers it (the page's handler responds).
        const controls = document.getElementById('controls') as HTMLFormElement;
        const seen = new Promise((resolve) => mc.addEventListener('toolchange', resolve, { once: true }));
        controls.setAttribute('tooldescription', `${controls.getAttribute('tooldescription')}.`);
        await seen;
        (document.getElementById('manual-submit') as HTMLElement).click();
      }
      out[label] = [await call, w.marks(manual).form, ...log];
      if (label === 'toolautosubmit') manual.toggleAttribute('toolautosubmit');
    }
    return out;
  });
  const ended = [['rejected', 'DOMException:UnknownError'], false];
  expect(out).toEqual({
    'the same description': [['ok', 'manual done'], false],
    'a field’s value': [['ok', 'manual done'], false],
    'the description': ended,
    'the title': ended,
    toolautosubmit: ended,
    'a new field': ended,
    'a field’s description': ended,
    'a field becoming required': ended,
    'the name': ended,
  });
});

test('an abort rejects a form’s call at once, its marks still on; toolcancel follows with the marks gone', async ({ context, server }) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const log: string[] = [];
    let form = document.getElementById('manual') as HTMLFormElement;
    mc.addEventListener('toolcancel', (e: any) => log.push(`toolcancel ${e.toolName} marked=${w.marks(form).form}`));
    const out: Record<string, string[]> = {};
    for (const [label, id, input] of [
      ['waiting for the person', 'manual', { m: 'x' }],
      ['answered with a pending promise', 'answer', { q: 'x' }],
    ] as const) {
      form = document.getElementById(id) as HTMLFormElement;
      w.onAgentSubmit = (_form: HTMLFormElement, event: any) => {
        event.preventDefault();
        event.respondWith(new Promise(() => {}));
      };
      log.length = 0;
      const controller = new AbortController();
      const call = mc
        .executeTool(await w.toolNamed(id), input, { signal: controller.signal })
        .catch((e: DOMException) => log.push(`rejected ${e.name} marked=${w.marks(form).form}`));
      await new Promise((resolve) => mc.addEventListener('toolactivated', resolve, { once: true }));
      const cancelled = new Promise((resolve) => mc.addEventListener('toolcancel', resolve, { once: true }));
      controller.abort();
      queueMicrotask(() => log.push('a microtask queued after abort()'));
      await Promise.all([call, cancelled]);
      out[label] = [...log];
    }
    return out;
  });
  expect(out).toEqual({
    'waiting for the person': ['rejected AbortError marked=true', 'a microtask queued after abort()', 'toolcancel manual marked=false'],
    'answered with a pending promise': [
      'rejected AbortError marked=true',
      'a microtask queued after abort()',
      'toolcancel answer marked=false',
    ],
  });
});

test('a form’s call settles after the tasks its submit handler queued, and those its answer queued', async ({ context, server }) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const tool = await w.toolNamed('answer');
    const log: string[] = [];
    mc.addEventListener('toolactivated', () => log.push('toolactivated'));
    const handlers: Record<string, (form: HTMLFormElement, event: any) => void> = {
      'a timer, then an answer': (_form, event) => {
        event.preventDefault();
        setTimeout(() => log.push('timer'), 0);
        event.respondWith('x');
      },
      'an answer in a timer': (_form, event) => {
        event.preventDefault();
        event.respondWith(
          new Promise((resolve) =>
            setTimeout(() => {
              log.push('timer answers');
              resolve('x');
              setTimeout(() => log.push('timer queued with the answer'), 0);
            }, 0),
          ),
        );
      },
    };
    const out: Record<string, string[]> = {};
    for (const [label, handler] of Object.entries(handlers)) {
      w.onAgentSubmit = handler;
      log.length = 0;
      await mc.executeTool(tool, { q: label }).then(() => log.push('resolved'));
      out[label] = [...log];
    }
    return out;
  });
  expect(out).toEqual({
    'a timer, then an answer': ['toolactivated', 'timer', 'resolved'],
    'an answer in a timer': ['toolactivated', 'timer answers', 'timer queued with the answer', 'resolved'],
  });
});

test('a form’s definition is kept until something native counts changes: its controls’ attributes or its children, not text, options or labels; then it is read whole', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const form = document.createElement('form');
    form.setAttribute('toolname', 'texty');
    form.setAttribute('tooldescription', 'Text changes');
    form.innerHTML =
      '<label for="pick">Pick one</label><select id="pick" name="pick"><option value="a">Alpha</option><option value="b">Beta</option></select>' +
      '<label>Note <input name="note"></label>';
    // A second form whose change is always seen: once its new description is listed, a change of the first form
    // that counts would have been listed too.
    const sentinel = document.createElement('form');
    sentinel.setAttribute('toolname', 'sentinel');
    sentinel.setAttribute('tooldescription', 'S0');
    sentinel.innerHTML = '<input name="s">';
    document.body.append(form, sentinel);
    const listed = async (name: string, description?: string) => {
      for (;;) {
        const tool = (await mc.getTools()).find(
          (t: any) => t.name === name && (description === undefined || t.description === description),
        );
        if (tool) return tool;
        await new Promise((resolve) => mc.addEventListener('toolchange', resolve, { once: true }));
      }
    };
    await listed('texty');
    const select = form.querySelector('select') as HTMLSelectElement;
    const label = form.querySelector('label') as HTMLLabelElement;
    const steps: Record<string, () => void> = {
      'nothing more': () => undefined,
      'an option’s value attribute': () => select.options[1].setAttribute('value', 'z'),
      'an option added': () => select.append(new Option('Gamma', 'g')),
      'an option’s data attribute': () => select.options[0].setAttribute('data-o', '1'),
      'a label’s for attribute': () => label.setAttribute('for', 'nothing'),
      'a label’s data attribute': () => label.setAttribute('data-z', '1'),
      'an element added to a label': () => label.append(document.createElement('span')),
      'the form’s class': () => form.setAttribute('class', 'styled'),
      'the form’s data attribute': () => form.setAttribute('data-y', '1'),
      'a control’s inline style': () => (select.style.color = 'red'),
      'a control elsewhere in the document': () => document.body.append(document.createElement('input')),
      'a control’s data attribute': () => select.setAttribute('data-x', '1'),
      'a control’s aria-description': () => select.setAttribute('aria-description', 'Choose'),
      'a control’s type': () => ((form.querySelector('input') as HTMLInputElement).type = 'number'),
      'an element added to the form': () => form.append(document.createElement('div')),
      'a fieldset added to the form': () => form.append(document.createElement('fieldset')),
      'the form’s description': () => form.setAttribute('tooldescription', 'Text changes, again'),
    };
    const readAgain: Record<string, boolean> = {};
    let n = 0;
    for (const [label, step] of Object.entries(steps)) {
      n++;
      // Text alone: the first option's.
      select.options[0].text = `T${n}`;
      step();
      sentinel.setAttribute('tooldescription', `S${n}`);
      await listed('sentinel', `S${n}`);
      const tool = await listed('texty');
      readAgain[label] = tool.inputSchema.properties.pick.anyOf[0].title === `T${n}`;
    }
    return readAgain;
  });
  expect(out).toEqual({
    'nothing more': false,
    'an option’s value attribute': false,
    'an option added': false,
    'an option’s data attribute': false,
    'a label’s for attribute': false,
    'a label’s data attribute': false,
    'an element added to a label': false,
    'the form’s class': false,
    'the form’s data attribute': false,
    'a control’s inline style': false,
    'a control elsewhere in the document': false,
    'a control’s data attribute': true,
    'a control’s aria-description': true,
    'a control’s type': true,
    'an element added to the form': true,
    'a fieldset added to the form': true,
    'the form’s description': true,
  });
});

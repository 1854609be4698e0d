import { describe, expect, it } from 'vitest';
import { validateArgs } from '../agent/validate-args';
import { buildHandRunForm, readHandRunForm } from './hand-run-form';

const schema = {
  type: 'object',
  required: ['product_id', 'size'],
  properties: {
    product_id: { type: 'string' },
    quantity: { type: 'integer', minimum: 1, default: 1 },
    size: { type: 'string', enum: ['S', 'M', 'L'] },
    gift: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    pin: { type: 'string', writeOnly: true },
  },
};

describe('buildHandRunForm', () => {
  it('makes one control per top-level property, by type', () => {
    const controls = buildHandRunForm(schema);
    expect(controls.map((c) => [c.name, c.kind, c.required])).toEqual([
      ['product_id', 'text', true],
      ['quantity', 'number', false],
      ['size', 'select', true],
      ['gift', 'checkbox', false],
      ['tags', 'json', false],
      ['pin', 'text', false],
    ]);
    expect(controls[1]).toMatchObject({ integer: true, initial: '1' });
    expect(controls[2].options).toEqual(['S', 'M', 'L']);
    expect(controls[4].jsonType).toBe('array');
    expect(controls[5].secret).toBe(true);
  });
});

describe('readHandRunForm', () => {
  const controls = buildHandRunForm(schema);

  it('turns values into the input, leaving empty optional fields out', () => {
    expect(readHandRunForm(controls, { product_id: 'p1', size: '2', gift: true, tags: '["a"]' })).toEqual({
      ok: true,
      input: { product_id: 'p1', quantity: 1, size: 'L', gift: true, tags: ['a'] },
    });
  });

  it('says what is wrong with each field', () => {
    expect(readHandRunForm(controls, { product_id: '', size: '', quantity: '1.5', tags: '{"a":1}' })).toEqual({
      ok: false,
      errors: [
        { name: 'product_id', message: 'required' },
        { name: 'quantity', message: 'must be a whole number' },
        { name: 'size', message: 'required' },
        { name: 'tags', message: 'must be a JSON array' },
      ],
    });
    const broken = readHandRunForm(controls, { product_id: 'p', size: '0', tags: '[1,' });
    expect(broken.ok).toBe(false);
    if (!broken.ok) expect(broken.errors[0].message).toMatch(/^is not valid JSON/);
  });

  it('leaves schema rules the form cannot see to the agent’s validator', () => {
    const read = readHandRunForm(controls, { product_id: 'p1', size: '0', quantity: '0' });
    expect(read.ok).toBe(true);
    if (read.ok) expect(validateArgs(schema, read.input)).toMatchObject({ ok: false, message: expect.stringMatching(/quantity/) });
  });
});

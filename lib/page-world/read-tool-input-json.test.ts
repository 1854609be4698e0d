import { describe, expect, it } from 'vitest';
import { readToolInputJson } from './read-tool-input-json';

describe('readToolInputJson', () => {
  it('takes no input as a fresh {}, and an object as its JSON', () => {
    expect(readToolInputJson(undefined)).toBe('{}');
    expect(readToolInputJson({ q: 'shoes' })).toBe('{"q":"shoes"}');
    expect(readToolInputJson([1])).toBe('[1]');
  });

  it("refuses what is no object, or no JSON, with native's TypeError", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const cases: [unknown, string][] = [
      [null, 'value is not an object'],
      ['text', 'value is not an object'],
      [cyclic, 'invalid input object: '],
      [{ toJSON: () => undefined }, 'toJSON() returns undefined'],
    ];
    for (const [input, detail] of cases) {
      expect(() => readToolInputJson(input)).toThrow(TypeError);
      expect(() => readToolInputJson(input)).toThrow(`Failed to execute 'executeTool' on 'ModelContext': invalid input object`);
      expect(() => readToolInputJson(input)).toThrow(detail);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { describeToolForModel } from './describe-tool-for-model';

describe('describeToolForModel', () => {
  it('adds the result shape after the description as one sentence', () => {
    expect(describeToolForModel('Finds products', '{hits: number}')).toBe('Finds products. Returns: {hits: number}');
    expect(describeToolForModel('Finds products. ', '{hits: number}')).toBe('Finds products. Returns: {hits: number}');
    expect(describeToolForModel('', 'string[]')).toBe('Returns: string[]');
  });

  it('leaves a tool without an outputSchema as the page described it', () => {
    expect(describeToolForModel('Finds products', undefined)).toBe('Finds products');
  });
});

import { describe, expect, it } from 'vitest';
import { valueHints } from './value-hints';

describe('valueHints', () => {
  it('names the kinds of values a request carries', () => {
    expect(valueHints('Let alex@example.com edit the budget')).toEqual(['email']);
    expect(valueHints('a house for under $800k')).toEqual(['price']);
    expect(valueHints('costs 20 euros')).toEqual(['price']);
    expect(valueHints('departing Friday, back on 2026-01-27')).toEqual(['date']);
    expect(valueHints('a table for tomorrow at 7pm')).toEqual(['date', 'time']);
    expect(valueHints('between 6am and 11:30')).toEqual(['time']);
    expect(valueHints('save https://example.com/a for later')).toEqual(['url']);
  });

  it('finds none in a request without values, and does not take the verb "may" for the month', () => {
    expect(valueHints('add the blue shoes to my cart')).toEqual([]);
    expect(valueHints('May I see the menu?')).toEqual([]);
    expect(valueHints('table for 4')).toEqual([]);
  });
});

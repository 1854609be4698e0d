import { describe, expect, it } from 'vitest';
import { resultCallerWords } from './result-caller-words';

describe('resultCallerWords', () => {
  it('names the person, a desktop agent and the agent apart', () => {
    expect(resultCallerWords('person')).toBe('of a call by hand');
    expect(resultCallerWords('client')).toBe('of a desktop agent’s call');
    expect(resultCallerWords('agent')).toBe('of an agent’s call');
  });
});

import { describe, expect, it } from 'vitest';
import { tokenize } from './rank-tools';
import { TASK_SYNONYMS } from './task-synonyms';

describe('TASK_SYNONYMS', () => {
  it('holds single lower-case words, each in one group only (a word with two meanings would join unrelated groups)', () => {
    const seen = new Map<string, number>();
    for (const [i, group] of TASK_SYNONYMS.entries()) {
      expect(group.length).toBeGreaterThan(1);
      for (const word of group) {
        expect(word).toMatch(/^[a-z]+(?:-[a-z]+)?$/);
        for (const stem of tokenize(word)) {
          expect(seen.get(stem) ?? i, `${word} is in groups ${seen.get(stem)} and ${i}`).toBe(i);
          seen.set(stem, i);
        }
      }
    }
  });
});

// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { declarativeFormTools } from './declarative-form-tools';

describe('declarativeFormTools', () => {
  it('names a window’s form tools, forgets a name only for the form that holds it, and says when it changed', () => {
    const win = window as unknown as Window;
    const record = declarativeFormTools(win);
    const [a, b] = [document.createElement('form'), document.createElement('form')];
    let changes = 0;
    declarativeFormTools(win).onChange(() => changes++);
    record.set('send', a);
    expect(declarativeFormTools(win).get('send')).toBe(a);
    record.delete('send', b);
    expect([record.get('send'), changes]).toEqual([a, 1]);
    record.set('send', b);
    record.delete('send', a);
    record.delete('send', b);
    expect([record.get('send'), changes]).toEqual([undefined, 3]);
  });
});

import { describe, expect, it } from 'vitest';
import { questionArguments } from './question-arguments';

const schema = {
  type: 'object',
  properties: {
    user: { type: 'string' },
    password: { type: 'string', format: 'password' },
    profile: { type: 'object', properties: { pin: { type: 'string', writeOnly: true } } },
  },
};

describe('questionArguments', () => {
  it('masks what the schema marks secret at any depth, redacts it wherever else it appears, and keeps the clear text apart', () => {
    const input = { user: 'ada', password: 'hunter2-horse', profile: { pin: '91827' }, note: 'my password is hunter2-horse' };
    const { shown, clear } = questionArguments(input, schema);
    expect(JSON.parse(shown)).toEqual({
      user: 'ada',
      password: '[redacted]',
      profile: { pin: '[redacted]' },
      note: 'my password is [redacted]',
    });
    expect(shown).not.toContain('hunter2-horse');
    expect(JSON.parse(clear ?? '')).toEqual(input);
  });

  it('has nothing to reveal when nothing was masked', () => {
    expect(questionArguments({ user: 'ada' }, schema)).toEqual({ shown: '{\n  "user": "ada"\n}' });
    expect(questionArguments({ q: 'x' }, { type: 'object' })).toEqual({ shown: '{\n  "q": "x"\n}' });
  });

  it('masks the whole input when a hostile schema cannot be walked, and survives arguments JSON cannot write', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { a: cyclic, b: { type: 'string', format: 'password' } };
    expect(questionArguments({ b: 'secret-value' }, cyclic).shown).not.toContain('secret-value');
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(questionArguments(loop, { type: 'object' })).toEqual({ shown: '{\n  "self": "[circular]"\n}' });
  });
});

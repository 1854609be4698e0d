import { describe, expect, it } from 'vitest';
import type { EvalCase } from './eval-types';
import { redactEvalCases, redactEvalReport } from './redact-eval-report';
import { scoreEvalCase } from './score-eval-case';
import { toEvalReport } from './to-eval-report';

const KEY = 'sk-eval-report-key';
const LOGIN_SCHEMA = {
  type: 'object',
  properties: { username: { type: 'string' }, password: { type: 'string', format: 'password' } },
};

/** A login case that fails on the password, and a payment whose nested cvv the schema marks secret. */
function report() {
  const login: EvalCase = {
    name: 'Log in',
    messages: [{ role: 'user', type: 'message', content: 'log in' }],
    expectedCall: [{ functionName: 'log_in', arguments: { username: 'ada', password: 'expected-pass' } }],
  };
  const loginCalls = [{ functionName: 'log_in', args: { username: 'ada', password: 'actual-pass' }, result: 'Welcome, actual-pass!' }];
  const pay: EvalCase = {
    name: 'Pay',
    messages: [{ role: 'user', type: 'message', content: 'pay' }],
    expectedCall: [{ functionName: 'pay', arguments: { card: { cvv: { $type: 'string' } } } }],
  };
  const payCalls = [
    {
      functionName: 'pay',
      args: { amount: 5, cards: [{ cvv: '7373' }], card: { cvv: '8484' } },
      secretPaths: [
        ['card', 'cvv'],
        ['cards', '*', 'cvv'],
      ],
    },
  ];
  return toEvalReport(
    [
      {
        index: 0,
        name: 'Log in',
        outcome: 'fail',
        score: scoreEvalCase(login, loginCalls),
        actual: loginCalls,
        finalAnswer: `Logged in with actual-pass; key ${KEY}`,
        durationMs: 1,
      },
      {
        index: 1,
        name: 'Pay',
        outcome: 'pass',
        score: scoreEvalCase(pay, payCalls),
        actual: payCalls,
        finalAnswer: 'Paid; a cvv is a string.',
        durationMs: 1,
      },
    ],
    {
      total: 2,
      url: 'https://shop.test/',
      agent: { kind: 'cloud', label: 'Cloud' },
      startedAt: new Date(0),
      finishedAt: new Date(1),
      stopped: false,
    },
  );
}

describe('redactEvalReport', () => {
  it('the unredacted report holds every secret (the fixture trips the check)', () => {
    const text = JSON.stringify(report());
    for (const secret of ['expected-pass', 'actual-pass', '7373', '8484', KEY]) expect(text).toContain(secret);
  });

  it('masks expected and actual secret arguments at any depth, redacts their values and the key everywhere', () => {
    const redacted = redactEvalReport(report(), { values: [KEY], tools: [{ name: 'log_in', inputSchema: LOGIN_SCHEMA }] });
    const text = JSON.stringify(redacted);
    for (const secret of ['expected-pass', 'actual-pass', '7373', '8484', KEY]) expect(text).not.toContain(secret);
    const [login, pay] = redacted.cases;
    expect(login.actual[0].args).toEqual({ username: 'ada', password: '[redacted]' });
    expect(login.score?.rows[0].expected?.arguments).toEqual({ username: 'ada', password: '[redacted]' });
    expect(login.score?.rows[0].differences.join(' ')).toContain('[redacted]');
    // The pay call's own kept paths mask it, though no pay tool is on the page now; the expectation too.
    expect(pay.actual[0].args).toEqual({ amount: 5, cards: [{ cvv: '[redacted]' }], card: { cvv: '[redacted]' } });
    expect(pay.score?.rows[0].expected?.arguments).toEqual({ card: { cvv: '[redacted]' } });
    // A `$type` word is masked in place, not redacted from the rest of the report.
    expect(pay.finalAnswer).toBe('Paid; a cvv is a string.');
    expect(text).not.toContain('secretPaths');
    expect(redacted.summary).toEqual(report().summary);
  });

  it('masks what the person marked, by the tool’s page name', () => {
    const redacted = redactEvalReport(report(), {
      tools: [{ name: 'log_in_2', originalName: 'log_in', inputSchema: {} }],
      marked: { log_in_2: ['username'] },
    });
    expect(redacted.cases[0].actual[0].args).toEqual({ username: '[redacted]', password: 'actual-pass' });
  });

  it('masks the cases as the Evals view shows them, the same way as the report', () => {
    const cases = redactEvalCases(report().cases, { tools: [{ name: 'log_in', inputSchema: LOGIN_SCHEMA }] });
    const text = JSON.stringify(cases);
    for (const secret of ['expected-pass', 'actual-pass', '7373', '8484']) expect(text).not.toContain(secret);
    expect(cases[0].score?.rows[0].differences.join(' ')).toContain('[redacted]');
    expect(cases[0].finalAnswer).toBe(`Logged in with [redacted]; key ${KEY}`);
    expect(cases).toEqual(redactEvalReport(report(), { tools: [{ name: 'log_in', inputSchema: LOGIN_SCHEMA }] }).cases);
  });
});

import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../agent/types';
import type { EvalCase } from './eval-types';
import { collectActualCalls, type EvalDriver, type EvalRunEnd, runEvalCases, splitMessages } from './run-eval-cases';
import { formatEvalReport, toEvalReport } from './to-eval-report';

const user = (content: string) => ({ role: 'user' as const, type: 'message' as const, content });
const tool = (id: string, name: string, input: unknown, text: string, error = false) => ({
  type: 'tool' as const,
  id,
  name,
  input,
  state: error ? ('error' as const) : ('done' as const),
  ...(error ? { error: text } : { output: { content: [{ type: 'text' as const, text }] } }),
});

/** A test double for the panel's driver: each sent text gets a scripted answer, and every call is logged. */
function scriptedDriver(answers: Record<string, AgentMessage['parts'] | Error>): EvalDriver & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    async reset(url) {
      log.push(`reset ${url}`);
    },
    async run(seed, text): Promise<EvalRunEnd> {
      log.push(`run ${seed.length} ${text}`);
      const answer = answers[text];
      if (answer instanceof Error) throw answer;
      const messages: AgentMessage[] = [...seed, { id: 'u', role: 'user', parts: [{ type: 'text', text }] }];
      if (answer) messages.push({ id: 'a', role: 'assistant', parts: answer });
      return { messages, reason: 'stop' };
    },
    originalName: (name) => name.replace('view_product_2', 'view.product'),
  };
}

const cases: EvalCase[] = [
  { name: 'cart', messages: [user('show my cart')], expectedCall: [{ functionName: 'get_cart' }] },
  { name: 'wrong', messages: [user('add a hat')], expectedCall: [{ functionName: 'add_to_cart', arguments: { sku: 'hat' } }] },
  { name: 'broken', messages: [user('explode')], expectedCall: [{ functionName: 'x' }] },
];

describe('runEvalCases', () => {
  it('reloads the page, runs each case in a fresh conversation and scores what the agent did', async () => {
    const driver = scriptedDriver({
      'show my cart': [tool('1', 'get_cart', {}, '{"items":[]}'), { type: 'text', text: 'Your cart is empty.' }],
      'add a hat': [tool('2', 'add_to_cart', { sku: 'cap' }, 'Added.')],
      explode: new Error('The page did not load.'),
    });
    const progress: number[] = [];
    const results = await runEvalCases(cases, {
      url: 'http://shop/',
      driver,
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p.done),
    });
    expect(driver.log).toEqual([
      'reset http://shop/',
      'run 0 show my cart',
      'reset http://shop/',
      'run 0 add a hat',
      'reset http://shop/',
      'run 0 explode',
    ]);
    expect(results.map((r) => r.outcome)).toEqual(['pass', 'fail', 'error']);
    expect(results[0]).toMatchObject({ finalAnswer: 'Your cart is empty.', actual: [{ functionName: 'get_cart', result: { items: [] } }] });
    expect(results[1].score?.rows[0].differences).toEqual(['arguments: sku: expected "hat", got "cap"']);
    expect(results[2].error).toBe('The page did not load.');
    expect(progress).toEqual([1, 2, 3]);

    const report = toEvalReport(results, {
      total: 3,
      url: 'http://shop/',
      agent: { kind: 'cloud', label: 'Cloud', model: 'm' },
      startedAt: new Date(0),
      finishedAt: new Date(1000),
      stopped: false,
    });
    expect(report.summary).toEqual({ total: 3, run: 3, passed: 1, failed: 1, errors: 1, stopped: false, passRate: 1 / 3 });
    expect(formatEvalReport(report).split('\n')).toEqual([
      'PASS  cart (1/1 calls)',
      'FAIL  wrong (0/1 calls) — arguments: sku: expected "hat", got "cap"',
      'ERROR  broken — The page did not load.',
      '1 passed, 2 failed (1 errors)',
    ]);
  });

  it('stops between cases when the signal aborts, keeping the results so far', async () => {
    const controller = new AbortController();
    const driver = scriptedDriver({ 'show my cart': [tool('1', 'get_cart', {}, 'ok')] });
    const results = await runEvalCases(cases, { url: 'u', driver, signal: controller.signal, onProgress: () => controller.abort() });
    expect(results).toHaveLength(1);
  });
});

describe('splitMessages', () => {
  it('turns earlier turns, calls and responses into a conversation to start from', () => {
    const { seed, text } = splitMessages([
      user('find shoes'),
      { role: 'model', type: 'functioncall', name: 'search', arguments: { q: 'shoes' } },
      { role: 'user', type: 'functionresponse', name: 'search', response: { ids: [1] } },
      { role: 'model', type: 'message', content: 'Found one.' },
      user('add it'),
    ]);
    expect(text).toBe('add it');
    expect(seed.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(seed[1].parts[0]).toMatchObject({
      type: 'tool',
      name: 'search',
      input: { q: 'shoes' },
      state: 'done',
      output: { content: [{ text: '{"ids":[1]}' }] },
    });
  });
});

describe('collectActualCalls', () => {
  it('lists page calls in order, a sub-agent’s in place of its delegate call, with page names and error codes', () => {
    const messages: AgentMessage[] = [
      { id: 'u', role: 'user', parts: [{ type: 'text', text: 'go' }] },
      {
        id: 'a',
        role: 'assistant',
        parts: [
          tool('1', 'view_product_2', { id: 1 }, 'a plain text'),
          {
            ...tool('2', 'delegate_to_checkout', { task: 'pay' }, 'paid'),
            agent: {
              id: 'checkout',
              messages: [{ id: 's', role: 'assistant', parts: [tool('3', 'check_out', {}, 'Error [cancelled]: no', true)] }],
            },
          },
        ],
      },
    ];
    expect(collectActualCalls(messages, (n) => n.replace('view_product_2', 'view.product'))).toEqual([
      { functionName: 'view.product', args: { id: 1 }, result: 'a plain text' },
      { functionName: 'check_out', args: {}, errorCode: 'cancelled' },
    ]);
  });

  it('leaves out the extension’s search (find_tools): it is no page call', () => {
    const messages: AgentMessage[] = [
      {
        id: 'a',
        role: 'assistant',
        parts: [tool('1', 'find_tools', { query: 'cart' }, 'Tools found…'), tool('2', 'view_cart', {}, 'empty')],
      },
    ];
    expect(collectActualCalls(messages)).toEqual([{ functionName: 'view_cart', args: {}, result: 'empty' }]);
  });

  it('carries the secret paths a call kept, so the report can mask them once the tool is gone', () => {
    const messages: AgentMessage[] = [
      { id: 'a', role: 'assistant', parts: [{ ...tool('1', 'log_in', { password: 'p4ssword' }, 'ok'), secretPaths: [['password']] }] },
    ];
    expect(collectActualCalls(messages)).toEqual([
      { functionName: 'log_in', args: { password: 'p4ssword' }, result: 'ok', secretPaths: [['password']] },
    ]);
  });
});

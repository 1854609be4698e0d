// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { PolyfillModelContext } from './install-model-context-polyfill';
import type { AskIsolated } from '../webmcp/page-channel';
import { cancelResume, linkContinuations, markAgentCall } from './tool-continuations';

const win = () => window as unknown as Window & typeof globalThis;
type Question = Parameters<AskIsolated>[0];

/** The background as the page's world reaches it (through the isolated world): `answer` plays it. */
const asked: Question[] = [];
let answer: (question: Question) => Promise<unknown> = async () => undefined;
linkContinuations(win(), (question) => {
  asked.push(question);
  return answer(question);
});

const nameOf = (error: unknown) => (error instanceof DOMException ? `${error.name}: ${error.message}` : String(error));

describe('tool continuations in the polyfill', () => {
  it("gives an agent's call a token from the background, and refuses one to a call the page made itself", async () => {
    const mc = new PolyfillModelContext(win());
    asked.length = 0;
    answer = async (q) => (q.op === 'token' ? `token-for-${q.callId}` : undefined);
    const tokens: unknown[] = [];
    let client: Record<string, unknown> = {};
    await mc.registerTool({
      name: 'checkout',
      description: 'Pays',
      execute: async (_input: unknown, given: { invocation: { requestToken(): Promise<string> } }) => {
        client = given as unknown as Record<string, unknown>;
        tokens.push(await given.invocation.requestToken().catch(nameOf));
        return 'ok';
      },
    });
    const [tool] = await mc.getTools();
    // The bridge's call: its signal marked with the router's call id.
    const agent = new AbortController();
    markAgentCall(agent.signal, 'call-7');
    await mc.executeTool(tool, {}, { signal: agent.signal });
    // The page's own call.
    await mc.executeTool(tool, {});
    expect(Object.keys(client)).toEqual(['signal', 'invocation']);
    expect(tokens).toEqual([
      'token-for-call-7',
      'InvalidStateError: Only a call made by an agent that follows the page can continue on the next page; this call was made by the page itself.',
    ]);
    expect(asked).toEqual([{ op: 'token', callId: 'call-7' }]);
  });

  it('refuses a token the background will not mint, and any after the tool settled', async () => {
    const mc = new PolyfillModelContext(win());
    answer = async () => null;
    let invocation!: { requestToken(): Promise<string> };
    await mc.registerTool({
      name: 'late',
      description: 'Keeps its invocation',
      execute: (_input: unknown, given: { invocation: typeof invocation }) => {
        invocation = given.invocation;
        return invocation.requestToken().catch(nameOf);
      },
    });
    const [tool] = await mc.getTools();
    const agent = new AbortController();
    markAgentCall(agent.signal, 'call-8');
    expect(await mc.executeTool(tool, {}, { signal: agent.signal })).toBe(
      'InvalidStateError: This call has ended: a token is only given while the tool runs.',
    );
    answer = async () => 'would-be-token';
    asked.length = 0;
    expect(await invocation.requestToken().catch(nameOf)).toBe(
      'InvalidStateError: This call has ended: a token is only given while the tool runs.',
    );
    expect(asked).toEqual([]);
  });

  it('resumeTool runs the callback only once the background took the token, and delivers its result', async () => {
    const mc = new PolyfillModelContext(win());
    asked.length = 0;
    answer = async (q) => q.op === 'resume' || q.op === 'resumed';
    let ran = 0;
    await expect(
      mc.resumeTool('token-1', () => {
        ran++;
        return { paid: true };
      }),
    ).resolves.toBeUndefined();
    expect(ran).toBe(1);
    expect(asked).toEqual([
      { op: 'resume', token: 'token-1' },
      { op: 'resumed', token: 'token-1', ok: true, value: '{"paid":true}' },
    ]);
    // A callback that throws ends the call with its error; resumeTool still resolves once the caller has it.
    asked.length = 0;
    await mc.resumeTool('token-2', () => {
      throw new Error('card declined');
    });
    expect(asked[1]).toEqual({ op: 'resumed', token: 'token-2', ok: false, error: { name: 'Error', message: 'card declined' } });
  });

  it('resumeTool rejects a token nobody waits for with NotFoundError, and never runs the callback', async () => {
    const mc = new PolyfillModelContext(win());
    answer = async () => false;
    let ran = false;
    const settled = await mc.resumeTool('forged', () => (ran = true)).catch(nameOf);
    expect(settled).toBe('NotFoundError: No tool call waits for this token: it is unknown, already used, expired, or for another page.');
    expect(ran).toBe(false);
    // The call stopped waiting while the callback ran.
    answer = async (q) => q.op === 'resume';
    expect(await mc.resumeTool('late', () => 1).catch(nameOf)).toMatch(/^InvalidStateError: The call stopped waiting/);
  });

  it('a running callback gets a signal: once the call is over, it aborts, resumeTool rejects at once, and nothing the callback returns is handed over', async () => {
    const mc = new PolyfillModelContext(win());
    asked.length = 0;
    answer = async (q) => q.op === 'resume' || q.op === 'resumed';
    let finish: (value: unknown) => void = () => undefined;
    let given: { signal?: AbortSignal } = {};
    const heard: string[] = [];
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const settled = mc
      .resumeTool('token-stop', (client: { signal: AbortSignal }) => {
        given = client;
        client.signal.addEventListener('abort', () => heard.push(`abort: ${(client.signal.reason as DOMException).name}`));
        started();
        // Charges the card only when the agent still waits, as a careful page would.
        return new Promise((resolve) => (finish = resolve));
      })
      .then(
        () => 'resolved',
        (error) => nameOf(error),
      );
    await running;
    expect(Object.keys(given)).toEqual(['signal']);
    expect(given.signal?.aborted).toBe(false);
    // Another token’s stop touches nothing.
    cancelResume(win(), 'token-other');
    expect(given.signal?.aborted).toBe(false);
    // The background says the call is over (the person's Stop).
    cancelResume(win(), 'token-stop');
    expect(given.signal?.aborted).toBe(true);
    expect(heard).toEqual(['abort: AbortError']);
    expect(await settled).toBe('AbortError: The call was stopped (or waited too long): nothing this callback returns reaches the agent.');
    finish({ charged: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(asked).toEqual([{ op: 'resume', token: 'token-stop' }]);
    // A callback that settled is not running any more: a late stop is nothing.
    answer = async (q) => q.op === 'resume' || q.op === 'resumed';
    await mc.resumeTool('token-done', () => 'done');
    expect(() => cancelResume(win(), 'token-done')).not.toThrow();
  });

  it('resumeTool checks its arguments as WebIDL does', async () => {
    const mc = new PolyfillModelContext(win());
    const call = (...args: unknown[]) => (mc.resumeTool as (...a: unknown[]) => Promise<void>)(...args).catch((e) => e.constructor.name);
    expect(await call()).toBe('TypeError');
    expect(await call('t')).toBe('TypeError');
    expect(await call('t', 'not a function')).toBe('TypeError');
  });
});

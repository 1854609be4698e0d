/**
 * Tool continuations through the router (create-continuations.ts): a call whose tool asked for a token waits, once
 * its document navigated, for the next document to resume it; only that tab, frame and origin can, once.
 */
import { frameCallIn } from '../testing/frame-call-in';
import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../agent/types';
import type { BackgroundToFrameMessage, FrameCallResult } from '../messaging/router-messages';
import { report, settle, tool, withHonestSenders } from '../testing/tool-router-fixtures';
import type { FrameSender } from './attest-frame-sender';
import { createToolRouter } from './create-tool-router';

const TOP: FrameSender = { tabId: 1, frameId: 0, origin: 'https://shop.test', url: 'https://shop.test/cart', documentId: 'doc-1' };
const NEXT: FrameSender = { ...TOP, url: 'https://shop.test/done', documentId: 'doc-2' };
const paid: ToolOutput = { content: [{ type: 'text', text: 'paid: order 42' }] };

/**
 * A router whose tab has a `checkout` tool in its top frame. `play` runs in the frame when the call arrives, with
 * the call's id and the router to talk to; the frame then answers "navigated".
 */
async function stand(play: (callId: string, ask: (message: unknown, sender: FrameSender) => Promise<unknown>) => Promise<void>) {
  let callId = '';
  /** What the router sent to frames besides calls, with the frame and document it went to. */
  const sent: { tabId: number; frameId: number; documentId?: string; message: BackgroundToFrameMessage }[] = [];
  const router = withHonestSenders(
    createToolRouter({
      store: memoryStore(),
      setBadge: () => undefined,
      navigationTimeoutMs: 300,
      continuationTimeoutMs: 300,
      sendToFrame: async (tabId, frameId, message: BackgroundToFrameMessage, documentId) => {
        const call = frameCallIn(message);
        if (!call) {
          sent.push({ tabId, frameId, ...(documentId ? { documentId } : {}), message });
          return undefined;
        }
        callId = call.callId;
        await play(callId, (question, sender) => router.answerFrameQuestion(question, sender)!);
        return call.answer({ kind: 'navigated' } satisfies FrameCallResult);
      },
    }),
  );
  router.handleFrameMessage({ type: 'frame/ready', url: TOP.url }, TOP);
  router.handleFrameMessage({ type: 'frame/tools', report: report(TOP.origin, [tool('checkout')], { url: TOP.url }) }, TOP);
  await settle();
  /** The next document arrives in the top frame (as `sender`) and reports. */
  const arrive = (sender: FrameSender) => {
    router.handleFrameMessage({ type: 'frame/ready', url: sender.url }, sender);
    router.handleFrameMessage({ type: 'frame/tools', report: report(sender.origin, [], { url: sender.url, title: 'Done' }) }, sender);
  };
  return { router, arrive, sent, callId: () => callId };
}

function memoryStore() {
  const data = new Map<string, unknown>();
  return {
    get: async (keys: readonly string[]) =>
      Object.fromEntries(keys.filter((k) => data.has(k)).map((k) => [k, structuredClone(data.get(k))])),
    set: async (items: Record<string, unknown>) => {
      for (const [k, v] of Object.entries(items)) data.set(k, structuredClone(v));
    },
    remove: async (keys: readonly string[]) => {
      for (const k of keys) data.delete(k);
    },
  };
}

const textsOf = (output: ToolOutput) => output.content.map((c) => (c.type === 'text' ? c.text : ''));

describe('createToolRouter: tool continuations', () => {
  it('a call that asked for a token ends with what the next same-origin document resumes it with', async () => {
    let token: unknown;
    const { router, arrive } = await stand(async (callId, ask) => {
      token = await ask({ type: 'frame/continuation-token', callId }, TOP);
      // The page navigates; the next document resumes at once.
      setTimeout(async () => {
        arrive(NEXT);
        expect(await ask({ type: 'frame/resume', token }, NEXT)).toBe(true);
        expect(await ask({ type: 'frame/resume-result', token, output: paid }, NEXT)).toBe(true);
      }, 5);
    });
    const output = await router.callTool(1, { id: '1', name: 'checkout', input: {} });
    expect(typeof token).toBe('string');
    expect(textsOf(output)).toEqual(['paid: order 42', '("checkout" navigated the page and finished on https://shop.test/done.)']);
    expect(output.isError).toBeUndefined();
  });

  it('without a resume in time, the call says so and describes the new page', async () => {
    const { router, arrive } = await stand(async (callId, ask) => {
      await ask({ type: 'frame/continuation-token', callId }, TOP);
      setTimeout(() => arrive(NEXT), 5);
    });
    const output = await router.callTool(1, { id: '1', name: 'checkout', input: {} });
    expect(output.isError).toBe(true);
    expect(textsOf(output)).toEqual([
      'Error [timeout]: "checkout" asked to finish on the next page and did not within 0.3 s. "checkout" navigated the page to https://shop.test/done (“Done”).\nIts tools: none.',
    ]);
  });

  it('refuses a resume from another origin in the same frame, another tab, another frame, a guessed token, and a second resume', async () => {
    const refused: unknown[] = [];
    const { router, arrive } = await stand(async (callId, ask) => {
      const token = await ask({ type: 'frame/continuation-token', callId }, TOP);
      setTimeout(async () => {
        // The tab went to another site: that party cannot answer the person's call.
        const evil = { ...NEXT, origin: 'https://evil.test', url: 'https://evil.test/' };
        arrive(evil);
        refused.push(await ask({ type: 'frame/resume', token }, evil));
        refused.push(await ask({ type: 'frame/resume-result', token, output: paid }, evil));
        refused.push(await ask({ type: 'frame/resume', token }, { ...NEXT, tabId: 2 }));
        refused.push(await ask({ type: 'frame/resume', token }, { ...NEXT, frameId: 4, documentId: 'doc-9' }));
        refused.push(await ask({ type: 'frame/resume', token: 'a-guess' }, NEXT));
        refused.push(await ask({ type: 'frame/resume', token: { toString: () => token } }, NEXT));
        // The rightful next document claims it; a second claim, even its own, is refused, as is another's result.
        expect(await ask({ type: 'frame/resume', token }, NEXT)).toBe(true);
        refused.push(await ask({ type: 'frame/resume', token }, NEXT));
        refused.push(await ask({ type: 'frame/resume-result', token, output: paid }, { ...NEXT, documentId: 'doc-3' }));
      }, 5);
    });
    const output = await router.callTool(1, { id: '1', name: 'checkout', input: {} });
    expect(refused).toEqual([false, false, false, false, false, false, false, false]);
    expect(textsOf(output)[0]).toMatch(/^Error \[timeout\]: "checkout" asked to finish on the next page and did not/);
  });

  it('mints no token for a call that is not the one running in the asking frame', async () => {
    const minted: unknown[] = [];
    const { router } = await stand(async (callId, ask) => {
      minted.push(await ask({ type: 'frame/continuation-token', callId: 'made-up' }, TOP));
      minted.push(await ask({ type: 'frame/continuation-token', callId }, { ...TOP, frameId: 5 }));
      minted.push(await ask({ type: 'frame/continuation-token', callId }, { ...TOP, tabId: 2 }));
      minted.push(await ask({ type: 'frame/continuation-token', callId }, { ...TOP, documentId: 'doc-other' }));
      minted.push(await ask({ type: 'frame/continuation-token', callId: 7 }, TOP));
    });
    const output = await router.callTool(1, { id: '1', name: 'checkout', input: {} });
    expect(minted).toEqual([null, null, null, null, null]);
    // No token: the call navigated as before, and did not wait for a continuation.
    expect(textsOf(output)[0]).toMatch(/^Error \[navigated\]/);
  });

  it('a token is void once its call ended', async () => {
    let token: unknown;
    let ask!: (message: unknown, sender: FrameSender) => Promise<unknown>;
    const { router } = await stand(async (callId, asker) => {
      ask = asker;
      token = await ask({ type: 'frame/continuation-token', callId }, TOP);
    });
    await router.callTool(1, { id: '1', name: 'checkout', input: {} });
    expect(await ask({ type: 'frame/resume', token }, NEXT)).toBe(false);
  });

  it('the result the next page sends is capped as any result, and a shape that is no result is an error', async () => {
    const { router, arrive } = await stand(async (callId, ask) => {
      const token = await ask({ type: 'frame/continuation-token', callId }, TOP);
      setTimeout(async () => {
        arrive(NEXT);
        await ask({ type: 'frame/resume', token }, NEXT);
        await ask({ type: 'frame/resume-result', token, output: { content: 'not blocks' } }, NEXT);
      }, 5);
    });
    const output = await router.callTool(1, { id: '1', name: 'checkout', input: {} });
    expect(output.isError).toBe(true);
    expect(textsOf(output)[0]).toBe('Error [tool_threw]: The next page sent something that is not a tool result.');
  });

  it("the person's Stop ends the wait at once, and the token with it", async () => {
    let token: unknown;
    let ask!: (message: unknown, sender: FrameSender) => Promise<unknown>;
    const controller = new AbortController();
    const { router } = await stand(async (callId, asker) => {
      ask = asker;
      token = await ask({ type: 'frame/continuation-token', callId }, TOP);
      controller.abort();
    });
    const output = await router.callTool(1, { id: '1', name: 'checkout', input: {} }, { signal: controller.signal, timeoutMs: 60_000 });
    expect(textsOf(output)[0]).toMatch(/^Error \[cancelled\]/);
    expect(await ask({ type: 'frame/resume', token }, NEXT)).toBe(false);
  });

  it('the person’s Stop while the next page’s callback runs tells that document to abort it, and its result is refused', async () => {
    const controller = new AbortController();
    let token: unknown;
    let ask!: (message: unknown, sender: FrameSender) => Promise<unknown>;
    const { router, arrive, sent } = await stand(async (callId, asker) => {
      ask = asker;
      token = await ask({ type: 'frame/continuation-token', callId }, TOP);
      setTimeout(async () => {
        arrive(NEXT);
        expect(await ask({ type: 'frame/resume', token }, NEXT)).toBe(true);
        // The callback runs; the person presses Stop.
        controller.abort();
      }, 5);
    });
    const output = await router.callTool(1, { id: '1', name: 'checkout', input: {} }, { signal: controller.signal, timeoutMs: 60_000 });
    expect(textsOf(output)[0]).toMatch(/^Error \[cancelled\]/);
    expect(sent.filter((s) => s.message.type === 'bridge/cancel-resume')).toEqual([
      { tabId: 1, frameId: 0, documentId: 'doc-2', message: { type: 'bridge/cancel-resume', token } },
    ]);
    expect(await ask({ type: 'frame/resume-result', token, output: paid }, NEXT)).toBe(false);
  });

  it('a callback still running when the call’s time limit runs out is told to abort too; one that answered is not', async () => {
    let token: unknown;
    const timedOut = await stand(async (callId, ask) => {
      token = await ask({ type: 'frame/continuation-token', callId }, TOP);
      setTimeout(async () => {
        timedOut.arrive(NEXT);
        await ask({ type: 'frame/resume', token }, NEXT);
      }, 5);
    });
    const output = await timedOut.router.callTool(1, { id: '1', name: 'checkout', input: {} });
    expect(textsOf(output)[0]).toMatch(/^Error \[timeout\]/);
    expect(timedOut.sent.filter((s) => s.message.type === 'bridge/cancel-resume')).toEqual([
      { tabId: 1, frameId: 0, documentId: 'doc-2', message: { type: 'bridge/cancel-resume', token } },
    ]);

    const answered = await stand(async (callId, ask) => {
      const given = await ask({ type: 'frame/continuation-token', callId }, TOP);
      setTimeout(async () => {
        answered.arrive(NEXT);
        await ask({ type: 'frame/resume', token: given }, NEXT);
        await ask({ type: 'frame/resume-result', token: given, output: paid }, NEXT);
      }, 5);
    });
    await answered.router.callTool(1, { id: '1', name: 'checkout', input: {} });
    expect(answered.sent.filter((s) => s.message.type === 'bridge/cancel-resume')).toEqual([]);
  });

  it('the note on where the call finished leaves out the page’s fragment, where the spent token travels', async () => {
    const { router, arrive } = await stand(async (callId, ask) => {
      const token = await ask({ type: 'frame/continuation-token', callId }, TOP);
      setTimeout(async () => {
        const carrying = { ...NEXT, url: `https://shop.test/done?order=42#${String(token)}` };
        arrive(carrying);
        await ask({ type: 'frame/resume', token }, carrying);
        await ask({ type: 'frame/resume-result', token, output: paid }, carrying);
      }, 5);
    });
    const output = await router.callTool(1, { id: '1', name: 'checkout', input: {} });
    expect(textsOf(output)).toEqual(['paid: order 42', '("checkout" navigated the page and finished on https://shop.test/done?order=42.)']);
  });
});

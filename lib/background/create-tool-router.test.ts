import { describe, expect, it } from 'vitest';
import { type BackgroundToFrameMessage, FORM_WAITS_PROMPT, type FrameCallResult, type FrameReport } from '../messaging/router-messages';
import { type HonestRouter, report, settle, setup, tool, until, withHonestSenders } from '../testing/tool-router-fixtures';
import { manualClock } from '../testing/manual-clock';
import { frameCallIn } from '../testing/frame-call-in';
import { MAX_EXPOSED_BYTES } from './page-limits';
import { createToolRouter } from './create-tool-router';

describe('createToolRouter', () => {
  it('builds a snapshot of every frame with unique provider-safe names and the top page context', async () => {
    const { router, badges } = setup();
    router.handleFrameMessage(
      { type: 'frame/tools', report: report('http://a.test', [tool('cart.add'), tool('where')], { h1: 'Welcome' }) },
      { tabId: 1, frameId: 0 },
    );
    router.handleFrameMessage(
      { type: 'frame/tools', report: report('http://b.test', [tool('where', { annotations: { readOnlyHint: true } })]) },
      { tabId: 1, frameId: 5 },
    );
    await until(async () => expect((await router.getTools(1)).tools).toHaveLength(3));
    const snapshot = await router.getTools(1);
    expect(snapshot).toEqual({
      tabId: 1,
      revision: expect.any(Number),
      page: { url: 'http://a.test/', path: '/', title: 'Shop', h1: 'Welcome' },
      tools: [
        {
          name: 'cart_add',
          originalName: 'cart.add',
          description: 'cart.add does things',
          inputSchema: { type: 'object', properties: {} },
          origin: 'http://a.test',
          frameId: 0,
        },
        {
          name: 'where',
          originalName: 'where',
          description: 'where does things',
          inputSchema: { type: 'object', properties: {} },
          origin: 'http://a.test',
          frameId: 0,
        },
        {
          name: 'where_2',
          originalName: 'where',
          description: 'where does things',
          inputSchema: { type: 'object', properties: {} },
          annotations: { readOnlyHint: true },
          origin: 'http://b.test',
          frameId: 5,
        },
      ],
    });
    expect(badges[1]).toBe('3');
  });

  it('keeps each name with its tool: a frame going away frees no name for another tool', async () => {
    const { router } = setup();
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('where')]) }, { tabId: 11, frameId: 0 });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://b.test', [tool('where')]) }, { tabId: 11, frameId: 4 });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://c.test', [tool('where')]) }, { tabId: 11, frameId: 6 });
    await until(async () =>
      expect((await router.getTools(11)).tools.map((t) => `${t.name}@${t.origin}`)).toEqual([
        'where@http://a.test',
        'where_2@http://b.test',
        'where_3@http://c.test',
      ]),
    );
    // Frame 4 goes away, then a new frame with another "where" arrives.
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://b.test', []) }, { tabId: 11, frameId: 4 });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://d.test', [tool('where')]) }, { tabId: 11, frameId: 9 });
    await until(async () =>
      expect((await router.getTools(11)).tools.map((t) => `${t.name}@${t.origin}`)).toEqual([
        'where@http://a.test',
        'where_3@http://c.test',
        'where_4@http://d.test',
      ]),
    );
    // The old frame's tool comes back: its name is the one it had.
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://b.test', [tool('where')]) }, { tabId: 11, frameId: 4 });
    await settle();
    expect((await router.getTools(11)).tools.find((t) => t.origin === 'http://b.test')!.name).toBe('where_2');
    // A new top document (the browser says the tab loads one) starts afresh.
    await router.tabNavigating(11);
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/next' }, { tabId: 11, frameId: 0 });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://d.test', [tool('where')]) }, { tabId: 11, frameId: 9 });
    await until(async () => expect((await router.getTools(11)).tools.map((t) => t.name)).toEqual(['where']));
  });

  it("a top frame whose bridge loads after a frame's report keeps that frame's tools (only a new top document clears them)", async () => {
    const { router } = setup();
    // The frame has tools, so its bridge loaded at once; the top has none, and gets its bridge only when watched.
    router.handleFrameMessage(
      { type: 'frame/tools', report: report('http://a.test', [tool('place_order')]) },
      { tabId: 12, frameId: 3, url: 'http://a.test/ad' },
    );
    await settle();
    // Until the top frame is known, no frame is known to be same-origin with it.
    expect((await router.getTools(12)).tools).toEqual([]);
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/' }, { tabId: 12, frameId: 0 });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', []) }, { tabId: 12, frameId: 0 });
    await until(async () => expect((await router.getTools(12)).tools.map((t) => t.name)).toEqual(['place_order']));
    // A same-document navigation (an SPA route) changes nothing by itself.
    await router.tabNavigating(12);
    expect((await router.getTools(12)).tools.map((t) => t.name)).toEqual(['place_order']);
    // A new top document after it: the old page's frames go.
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/next' }, { tabId: 12, frameId: 0 });
    await until(async () => expect((await router.getTools(12)).tools).toEqual([]));
  });

  it('ignores malformed reports and resets a frame on a new document', async () => {
    const { router, badges } = setup();
    router.handleFrameMessage({ type: 'frame/tools', report: { url: 1, tools: 'x' } }, { tabId: 2, frameId: 0 });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('a')]) }, { tabId: 2, frameId: 0 });
    await settle();
    expect((await router.getTools(2)).tools.map((t) => t.name)).toEqual(['a']);
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/next' }, { tabId: 2, frameId: 0 });
    await settle();
    expect((await router.getTools(2)).tools).toEqual([]);
    expect(badges[2]).toBe('');
  });

  it('survives a service worker restart: a new router reads the tab state from session storage', async () => {
    const { router, store, ports } = setup();
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('a.b')]) }, { tabId: 3, frameId: 0 });
    await settle();
    const restarted = createToolRouter({ ...ports, store });
    expect((await restarted.getTools(3)).tools.map((t) => [t.name, t.originalName])).toEqual([['a_b', 'a.b']]);
  });

  it('routes a call to the owning frame under its original name, and unknown names come back as unknown_tool', async () => {
    const { router, sent } = setup(async (message) =>
      message.type === 'bridge/call'
        ? ({ kind: 'output', output: { content: [{ type: 'text', text: `ran ${message.name}` }] } } satisfies FrameCallResult)
        : undefined,
    );
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('where')]) }, { tabId: 4, frameId: 0 });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://b.test', [tool('where')]) }, { tabId: 4, frameId: 9 });
    await until(async () => expect((await router.getTools(4)).tools).toHaveLength(2));
    expect(await router.callTool(4, { id: '1', name: 'where_2', input: { a: 1 } })).toEqual({
      content: [{ type: 'text', text: 'ran where' }],
    });
    expect(sent.at(-1)).toMatchObject({
      tabId: 4,
      frameId: 9,
      message: { type: 'bridge/call', name: 'where', input: { a: 1 }, timeoutMs: 30_000, maxResultChars: 20_000 },
    });
    expect(await router.callTool(4, { id: '2', name: 'nope', input: {} })).toEqual({
      content: [{ type: 'text', text: 'Error [unknown_tool]: No tool named "nope" on this page. Available tools: where, where_2.' }],
      isError: true,
    });
  });

  it('caps what a frame returns, even a compromised frame that skipped its own cap (structuredContent counts)', async () => {
    const huge = { rows: 'x'.repeat(200_000) };
    const { router } = setup(async (message) =>
      message.type === 'bridge/call'
        ? ({ kind: 'output', output: { content: [], structuredContent: huge } } satisfies FrameCallResult)
        : undefined,
    );
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('dump')]) }, { tabId: 4, frameId: 0 });
    await settle();
    const output = await router.callTool(4, { id: '1', name: 'dump', input: {} });
    expect(output.structuredContent).toBeUndefined();
    expect(JSON.stringify(output).length).toBeLessThan(20_500);
    expect(JSON.stringify(output)).toContain('[Output cut: the tool returned 200011 characters');
  });

  it('refuses whole, unread, a result of tens of MB that a compromised frame sends past its own limit', async () => {
    const { router } = setup(async (message) =>
      message.type === 'bridge/call'
        ? ({ kind: 'output', output: { content: [{ type: 'text', text: 'x'.repeat(30_000_000) }] } } satisfies FrameCallResult)
        : undefined,
    );
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('dump')]) }, { tabId: 4, frameId: 0 });
    await settle();
    const output = await router.callTool(4, { id: '1', name: 'dump', input: {} });
    expect(output.isError).toBe(true);
    expect(output.content).toEqual([
      {
        type: 'text',
        text: 'Error [too_large]: "dump" returned a result of more than 1,000,000 characters; the extension refused it whole, so none of it is shown. Ask the tool for less, for example with a filter or a smaller page.',
      },
    ]);
  });

  it('passes a result the frame already cut (the cap plus its note) unchanged', async () => {
    const cut = {
      content: [
        { type: 'text' as const, text: 'x'.repeat(20_000) },
        { type: 'text' as const, text: '[Output cut: the tool returned 100000 characters; only the first 20000 are shown.]' },
      ],
    };
    const { router } = setup(async (message) =>
      message.type === 'bridge/call' ? ({ kind: 'output', output: cut } satisfies FrameCallResult) : undefined,
    );
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('huge')]) }, { tabId: 4, frameId: 0 });
    await settle();
    expect(await router.callTool(4, { id: '1', name: 'huge', input: {} })).toEqual(cut);
  });

  it('runs one call at a time per tab', async () => {
    const order: string[] = [];
    const { router } = setup(async (message) => {
      if (message.type !== 'bridge/call') return undefined;
      order.push(`start ${message.input}`);
      await new Promise((r) => setTimeout(r, message.input === 'slow' ? 50 : 1));
      order.push(`end ${message.input}`);
      return { kind: 'output', output: { content: [{ type: 'text', text: String(message.input) }] } };
    });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('t')]) }, { tabId: 5, frameId: 0 });
    await settle();
    await Promise.all([
      router.callTool(5, { id: '1', name: 't', input: 'slow' }),
      router.callTool(5, { id: '2', name: 't', input: 'fast' }),
    ]);
    expect(order).toEqual(['start slow', 'end slow', 'start fast', 'end fast']);
  });

  it('a frame that cannot be reached is frame_gone, and its tools leave the snapshot', async () => {
    const { router } = setup(async () => {
      throw new Error('Could not establish connection. Receiving end does not exist.');
    });
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/' }, { tabId: 6, frameId: 0 });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('t')]) }, { tabId: 6, frameId: 2 });
    await settle();
    expect(await router.callTool(6, { id: '1', name: 't', input: {} })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Error [frame_gone]: The frame that owned "t" is gone (Could not establish connection. Receiving end does not exist.).',
        },
      ],
      isError: true,
    });
    expect((await router.getTools(6)).tools).toEqual([]);
  });

  it('cancels: the frame is told and the call resolves as cancelled at once', async () => {
    const signals: AbortSignal[] = [];
    const { router, sent } = setup((message, _frameId, context) => {
      if (message.type !== 'bridge/call') return Promise.resolve(undefined);
      if (context) signals.push(context.signal);
      return new Promise(() => {});
    });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('hang')]) }, { tabId: 7, frameId: 0 });
    await settle();
    const controller = new AbortController();
    const call = router.callTool(7, { id: '1', name: 'hang', input: {} }, { signal: controller.signal });
    await settle();
    controller.abort();
    expect(await call).toEqual({
      content: [{ type: 'text', text: 'Error [cancelled]: "hang" was cancelled; the page was told (toolcancel).' }],
      isError: true,
    });
    // The cancel went on the call's line, and reached the frame's handler as its aborted signal.
    expect(sent.at(-1)!.message).toMatchObject({ type: 'bridge/line', message: { line: 'cancel', reason: { name: 'AbortError' } } });
    await until(async () => expect(signals[0]?.aborted).toBe(true));
  });

  it('a call that navigated returns what the next document reports', async () => {
    let router!: ReturnType<typeof setup>['router'];
    ({ router } = setup(async (message) => {
      if (message.type !== 'bridge/call') return undefined;
      // The new document announces itself and reports while the old one answers "navigated".
      setTimeout(() => {
        router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/done' }, { tabId: 8, frameId: 0 });
        router.handleFrameMessage(
          {
            type: 'frame/tools',
            report: report('http://a.test', [tool('next')], { url: 'http://a.test/done', title: 'Done', jsonLd: [{ '@type': 'Order' }] }),
          },
          { tabId: 8, frameId: 0 },
        );
      }, 5);
      return { kind: 'navigated' } satisfies FrameCallResult;
    }));
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('buy')]) }, { tabId: 8, frameId: 0 });
    await settle();
    expect(await router.callTool(8, { id: '1', name: 'buy', input: {} })).toEqual({
      content: [
        {
          type: 'text',
          text: '"buy" navigated the page to http://a.test/done (“Done”).\nStructured data on the new page (JSON-LD): [{"@type":"Order"}]\nIts tools: next.',
        },
      ],
      structuredContent: { navigatedTo: 'http://a.test/done', title: 'Done', jsonLd: [{ '@type': 'Order' }] },
    });
  });

  it('a navigation with no new report in time is Error [navigated]', async () => {
    const { router } = setup(async (message) => (message.type === 'bridge/call' ? { kind: 'navigated' } : undefined));
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('go')]) }, { tabId: 9, frameId: 0 });
    await settle();
    expect(await router.callTool(9, { id: '1', name: 'go', input: {} })).toEqual({
      content: [{ type: 'text', text: 'Error [navigated]: "go" navigated the page and the new page did not report within 0.3 s.' }],
      isError: true,
    });
  });
});

describe('createToolRouter: trust', () => {
  it("takes a frame's origin and URL from the browser's sender, never from its report", async () => {
    const { router } = setup();
    const forged = {
      ...report('https://bank.example', [tool('pay')], { url: 'https://bank.example/account', title: 'Bank' }),
      documentId: 'FORGED',
    };
    router.handleFrameMessage(
      { type: 'frame/tools', report: forged },
      { tabId: 20, frameId: 0, origin: 'http://evil.test', url: 'http://evil.test/x', documentId: 'D1' },
    );
    router.handleFrameMessage(
      { type: 'frame/tools', report: forged },
      { tabId: 20, frameId: 3, origin: 'http://ads.test', url: 'http://ads.test/f' },
    );
    await until(async () => expect((await router.getTools(20)).tools).toHaveLength(2));
    const snapshot = await router.getTools(20);
    expect(snapshot.page).toEqual({ url: 'http://evil.test/x', path: '/x', title: 'Bank' });
    expect(snapshot.tools.map((t) => [t.name, t.origin, t.frameId, t.documentId])).toEqual([
      ['pay', 'http://evil.test', 0, 'D1'],
      ['pay_2', 'http://ads.test', 3, undefined],
    ]);
  });

  it('ignores a late report from the document a frame has replaced', async () => {
    const { router } = setup();
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/' }, { tabId: 21, frameId: 0, documentId: 'NEW' });
    router.handleFrameMessage(
      { type: 'frame/tools', report: report('http://a.test', [tool('new')]) },
      { tabId: 21, frameId: 0, documentId: 'NEW' },
    );
    router.handleFrameMessage(
      { type: 'frame/tools', report: report('http://a.test', [tool('old')]) },
      { tabId: 21, frameId: 0, documentId: 'OLD' },
    );
    await settle();
    expect((await router.getTools(21)).tools.map((t) => t.name)).toEqual(['new']);
  });

  it('the top frame keeps its plain names even when a frame registered the same name first', async () => {
    const { router, sent } = setup(async (message, frameId) =>
      message.type === 'bridge/call' ? { kind: 'output', output: { content: [{ type: 'text', text: `frame ${frameId}` }] } } : undefined,
    );
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://shop.test/' }, { tabId: 22, frameId: 0 });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://ads.test', [tool('place_order')]) }, { tabId: 22, frameId: 5 });
    await until(async () => expect((await router.getTools(22)).tools.map((t) => t.name)).toEqual(['place_order']));
    router.handleFrameMessage(
      { type: 'frame/tools', report: report('http://shop.test', [tool('place_order')]) },
      { tabId: 22, frameId: 0 },
    );
    await settle();
    expect((await router.getTools(22)).tools.map((t) => [t.name, t.origin])).toEqual([
      ['place_order', 'http://shop.test'],
      ['place_order_2', 'http://ads.test'],
    ]);
    expect(await router.callTool(22, { id: '1', name: 'place_order', input: {} })).toEqual({
      content: [{ type: 'text', text: 'frame 0' }],
    });
    expect(sent.at(-1)).toMatchObject({ frameId: 0 });
  });

  it('runs an approved call only on the exact tool instance the person saw: another origin, document, tool or arguments is tool_changed', async () => {
    const { router, sent } = setup(async (message) =>
      message.type === 'bridge/call' ? { kind: 'output', output: { content: [{ type: 'text', text: 'paid' }] } } : undefined,
    );
    const from = (origin: string, documentId: string) => ({ tabId: 23, frameId: 0, origin, url: `${origin}/pay`, documentId });
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('pay')]) }, from('http://a.test', 'D1'));
    await settle();
    const shown = (await router.getTools(23)).tools[0];
    const expected = { frameId: 0, documentId: 'D1', origin: 'http://a.test', originalName: 'pay', input: { card: 1 } };
    expect(shown).toMatchObject({ frameId: 0, documentId: 'D1', origin: 'http://a.test', originalName: 'pay' });
    // Same instance, same arguments (in another key order): it runs, addressed to the document that was shown.
    expect(await router.callTool(23, { id: '1', name: 'pay', input: { card: 1 } }, { expect: expected })).toEqual({
      content: [{ type: 'text', text: 'paid' }],
    });
    expect(sent.at(-1)).toMatchObject({ frameId: 0, message: { type: 'bridge/call', name: 'pay' } });
    const calls = () => sent.filter((s) => s.message.type === 'bridge/call').length;
    const before = calls();
    const changed = async (input: unknown) => {
      const output = await router.callTool(23, { id: 'x', name: 'pay', input }, { expect: expected });
      expect(output.isError).toBe(true);
      return (output.content[0] as { text: string }).text;
    };
    expect(await changed({ card: 2 })).toMatch(
      /^Error \[tool_changed\]: The arguments of "pay" differ from the ones the person approved\. Nothing was run/,
    );
    // The tab navigates to another site with its own "pay" while the question is open.
    await router.tabNavigating(23);
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://b.test/pay' }, from('http://b.test', 'D2'));
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://b.test', [tool('pay')]) }, from('http://b.test', 'D2'));
    await settle();
    expect(await changed({ card: 1 })).toBe(
      'Error [tool_changed]: "pay" now belongs to b.test, not a.test where the person approved it (the page changed). Nothing was run; ask the person again if it is still wanted.',
    );
    // The same site in a new document (a reload) is not the instance approved either.
    await router.tabNavigating(23);
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://a.test/pay' }, from('http://a.test', 'D3'));
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', [tool('pay')]) }, from('http://a.test', 'D3'));
    await settle();
    expect(await changed({ card: 1 })).toMatch(
      /^Error \[tool_changed\]: The page was reloaded or navigated after the person approved "pay"/,
    );
    // Gone altogether.
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', []) }, from('http://a.test', 'D3'));
    await settle();
    expect(await changed({ card: 1 })).toMatch(/^Error \[tool_changed\]: "pay" is no longer on the page/);
    expect(calls()).toBe(before);
  });

  it('addresses calls to the document that registered the tool', async () => {
    const documents: (string | undefined)[] = [];
    const { ports } = setup();
    ports.sendToFrame = async (_tabId: number, _frameId: number, message: BackgroundToFrameMessage, documentId?: string) => {
      documents.push(documentId);
      return frameCallIn(message)?.answer({ kind: 'output', output: { content: [] } });
    };
    const routed = withHonestSenders(createToolRouter(ports));
    routed.handleFrameMessage(
      { type: 'frame/tools', report: report('http://a.test', [tool('t')]) },
      { tabId: 24, frameId: 0, documentId: 'DOC-7' },
    );
    await settle();
    await routed.callTool(24, { id: '1', name: 't', input: {} });
    expect(documents).toEqual(['DOC-7']);
  });

  it('only the frame running a form’s call that waits for the person may report it waiting, in the background’s words', async () => {
    let release!: () => void;
    const { router } = setup(async (message, _frameId, context) => {
      if (message.type !== 'bridge/call') return undefined;
      // Another frame of the tab tries to say the call waits, on its own line, with every id a line could have.
      for (const id of [1, 2, 3, 4, '1']) {
        router.handleFrameMessage(
          { type: 'frame/line', message: { line: 'update', id, update: { state: 'awaiting-confirmation' } } },
          { tabId: 25, frameId: 9 },
        );
      }
      // The owner's own update carries no words: the card's are the background's.
      context?.update({ state: 'awaiting-confirmation' });
      await new Promise<void>((r) => {
        release = r;
      });
      return { kind: 'output', output: { content: [] } };
    });
    const tools = [tool('send', { declarative: true, needsConfirmation: true }), tool('pay'), tool('search', { declarative: true })];
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://a.test', tools) }, { tabId: 25, frameId: 0 });
    await settle();
    const statesOf = async (name: string) => {
      const states: unknown[] = [];
      const call = router.callTool(25, { id: name, name, input: {} }, { onState: (s) => states.push(s) });
      await settle();
      release();
      await call;
      return states;
    };
    expect(await statesOf('send')).toEqual([{ state: 'awaiting-confirmation', prompt: FORM_WAITS_PROMPT }]);
    // An imperative tool, and a form that submits itself, never look as if they waited for the person.
    expect(await statesOf('pay')).toEqual([]);
    expect(await statesOf('search')).toEqual([]);
  });
});

describe("createToolRouter: cross-origin frames need the page's delegation (tools policy, default self)", () => {
  const frame = (tabId: number, frameId: number, origin: string, names: string[]) => ({
    message: {
      type: 'frame/tools',
      report: report(
        origin,
        names.map((n) => tool(n)),
      ),
    },
    sender: { tabId, frameId },
  });
  const feed = (router: HonestRouter, ...frames: ReturnType<typeof frame>[]) => {
    for (const f of frames) router.handleFrameMessage(f.message, f.sender);
  };
  const origins = async (router: HonestRouter, tabId: number) => (await router.getTools(tabId)).tools.map((t) => `${t.name}@${t.origin}`);

  it('serves same-origin frames and frames whose iframe has allow="tools"; others serve nothing', async () => {
    const { router } = setup(undefined, {
      1: { parent: 0, allow: '' },
      2: { parent: 0, allow: 'fullscreen; tools' },
      3: { parent: 0, allow: 'camera' },
      4: { parent: 0, allow: "tools 'self'" },
    });
    feed(
      router,
      frame(30, 0, 'http://shop.test', ['buy']),
      frame(30, 1, 'http://shop.test', ['same']),
      frame(30, 2, 'http://widget.test', ['widget']),
      frame(30, 3, 'http://ads.test', ['ad']),
      frame(30, 4, 'http://ads2.test', ['ad2']),
    );
    await until(async () => expect(await origins(router, 30)).toContain('widget@http://widget.test'));
    await settle();
    expect(await origins(router, 30)).toEqual(['buy@http://shop.test', 'same@http://shop.test', 'widget@http://widget.test']);
    await until(async () =>
      expect((await router.getTools(30)).dropped).toEqual([
        {
          count: 2,
          reason: 'not-delegated',
          note: '2 tools from embedded frames of other sites left out: the page did not allow them to offer tools (allow="tools").',
        },
      ]),
    );
  });

  it("follows the policy down the tree: a delegated frame's same-origin child counts, an undelegated frame's children do not", async () => {
    const { router } = setup(undefined, {
      3: { parent: 0, allow: 'tools' },
      4: { parent: 3, allow: '' },
      6: { parent: 0, allow: '' },
      7: { parent: 6, allow: 'tools *' },
      8: { parent: 3, allow: '' },
    });
    feed(
      router,
      frame(31, 0, 'http://shop.test', []),
      frame(31, 3, 'http://widget.test', []),
      frame(31, 4, 'http://widget.test', ['inner']),
      frame(31, 6, 'http://ads.test', []),
      frame(31, 7, 'http://ads.test', ['nested_ad']),
      frame(31, 8, 'http://other.test', ['other']),
    );
    await until(async () => expect(await origins(router, 31)).toEqual(['inner@http://widget.test']));
    await new Promise((r) => setTimeout(r, 300));
    expect(await origins(router, 31)).toEqual(['inner@http://widget.test']);
  });

  it('a frame cannot delegate to itself: forged or stolen tokens count for nothing', async () => {
    const { ports } = setup();
    // The top's content script offers a token to its widget frame (allow="tools", src on widget.test).
    ports.sendToFrame = async (_tabId: number, frameId: number, message: BackgroundToFrameMessage) =>
      message.type === 'bridge/offer-delegation' && frameId === 0
        ? [{ token: 'WIDGET-TOKEN', allow: 'tools', src: 'http://widget.test/w' }]
        : [];
    const routed = withHonestSenders(createToolRouter({ ...ports, delegationWaitMs: 200 }));
    feed(routed, frame(32, 0, 'http://shop.test', []), frame(32, 5, 'http://ads.test', ['ad']));
    // The ad frame presents a token it made up, then the widget's token it got hold of, and reports again.
    routed.handleFrameMessage({ type: 'frame/delegation-token', token: 'MADE-UP' }, { tabId: 32, frameId: 5, url: 'http://ads.test/' });
    routed.handleFrameMessage(
      { type: 'frame/delegation-token', token: 'WIDGET-TOKEN' },
      { tabId: 32, frameId: 5, url: 'http://ads.test/' },
    );
    await new Promise((r) => setTimeout(r, 400));
    expect(await origins(routed, 32)).toEqual([]);
    // The top frame presenting its own child's token does not make anyone its own parent either.
    routed.handleFrameMessage(
      { type: 'frame/delegation-token', token: 'WIDGET-TOKEN' },
      { tabId: 32, frameId: 0, url: 'http://shop.test/' },
    );
    expect((await routed.getTools(32)).tools).toEqual([]);
  });

  it('answers a frame asking whether it may use tools about the sender the browser attests, whatever the message claims', async () => {
    const { router } = setup(undefined, { 2: { parent: 0, allow: 'tools' }, 3: { parent: 0, allow: '' } });
    feed(router, frame(34, 0, 'http://shop.test', []), frame(34, 2, 'http://widget.test', []), frame(34, 3, 'http://ads.test', []));
    await settle();
    const ask = (frameId: number, origin: string, claims: object = {}) =>
      router.answerFrameQuestion({ ...claims, type: 'frame/may-use-tools' }, { tabId: 34, frameId, origin, url: `${origin}/` });
    expect(await ask(0, 'http://shop.test')).toBe(true);
    expect(await ask(2, 'http://widget.test')).toBe(true);
    // A compromised content script of the undelegated frame claims to be the delegated one, or the top, or of its origin.
    expect(await ask(3, 'http://ads.test', { tabId: 34, frameId: 2, origin: 'http://widget.test', allowed: true })).toBe(false);
    expect(await ask(3, 'http://ads.test', { frameId: 0, origin: 'http://shop.test' })).toBe(false);
    // A frame no parent offers a token to (its parent is silent, or not known) is told no once the wait is over.
    expect(await ask(9, 'http://elsewhere.test')).toBe(false);
    // Only this is a question: other frame messages are not answered.
    expect(
      router.answerFrameQuestion(
        { type: 'frame/ready', url: 'http://ads.test/' },
        { tabId: 34, frameId: 3, origin: 'http://ads.test', url: 'http://ads.test/' },
      ),
    ).toBeUndefined();
  });

  it('follows the policy through frames that have no bridge of their own: a document of the top’s origin below an undelegated frame of another origin may not use tools', async () => {
    const { router } = setup(undefined, {
      // shop.test (0) > widget.test (3, allow="tools", no tools, no bridge) > shop.test (4, allow="tools *")
      3: { parent: 0, allow: 'tools', origin: 'http://widget.test' },
      4: { parent: 3, allow: 'tools *' },
      // shop.test (0) > ads.test (6, no allow, no bridge) > shop.test (7, allow="tools *")
      6: { parent: 0, allow: '', origin: 'http://ads.test' },
      7: { parent: 6, allow: 'tools *' },
    });
    const ready = (frameId: number, origin: string, needsDelegation?: boolean) =>
      router.handleFrameMessage({ type: 'frame/ready', url: `${origin}/`, needsDelegation }, { tabId: 35, frameId, url: `${origin}/` });
    feed(router, frame(35, 0, 'http://shop.test', []));
    // Each inner document saw a frame of another origin above it, and says so.
    ready(4, 'http://shop.test', true);
    ready(7, 'http://shop.test', true);
    feed(router, frame(35, 4, 'http://shop.test', ['delegated_inner']), frame(35, 7, 'http://shop.test', ['ad_inner']));
    const ask = (frameId: number) =>
      router.answerFrameQuestion(
        { type: 'frame/may-use-tools' },
        { tabId: 35, frameId, origin: 'http://shop.test', url: 'http://shop.test/' },
      );
    expect(await ask(4)).toBe(true);
    expect(await ask(7)).toBe(false);
    await until(async () => expect(await origins(router, 35)).toEqual(['delegated_inner@http://shop.test']));
  });

  it('a document of the top’s origin that asks whether it may use tools is checked as another origin’s is, whatever it said before', async () => {
    const { router } = setup(undefined, {
      6: { parent: 0, allow: '', origin: 'http://ads.test' },
      7: { parent: 6, allow: 'tools *' },
    });
    feed(router, frame(36, 0, 'http://shop.test', []));
    // A compromised frame said nothing of its ancestors, then asks: asking is saying it cannot vouch for them.
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://shop.test/', needsDelegation: false }, { tabId: 36, frameId: 7 });
    expect(
      await router.answerFrameQuestion(
        { type: 'frame/may-use-tools' },
        { tabId: 36, frameId: 7, origin: 'http://shop.test', url: 'http://shop.test/' },
      ),
    ).toBe(false);
    // A frame of another origin gains nothing by saying it needs no delegation.
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://ads.test/', needsDelegation: false }, { tabId: 36, frameId: 6 });
    feed(router, frame(36, 6, 'http://ads.test', ['ad']));
    await settle();
    expect(
      await router.answerFrameQuestion(
        { type: 'frame/may-use-tools' },
        { tabId: 36, frameId: 6, origin: 'http://ads.test', url: 'http://ads.test/' },
      ),
    ).toBe(false);
    expect(await origins(router, 36)).toEqual([]);
  });

  it('a frame that navigates to another origin is checked afresh', async () => {
    const { router } = setup(undefined, { 2: { parent: 0, allow: 'tools', src: 'http://widget.test/w' } });
    feed(router, frame(33, 0, 'http://shop.test', []), frame(33, 2, 'http://widget.test', ['widget']));
    await until(async () => expect(await origins(router, 33)).toEqual(['widget@http://widget.test']));
    // allow="tools" covers the src's origin; the frame goes elsewhere (its attested URL now on ads.test).
    router.handleFrameMessage({ type: 'frame/ready', url: 'http://ads.test/' }, { tabId: 33, frameId: 2 });
    feed(router, frame(33, 2, 'http://ads.test', ['ad']));
    await new Promise((r) => setTimeout(r, 400));
    expect(await origins(router, 33)).toEqual([]);
  });
});

describe('createToolRouter: tools exposed across origins', () => {
  const SHOP = 'http://shop.test';
  const WIDGET = 'http://widget.test';
  const ADS = 'http://ads.test';
  const attested = (tabId: number, frameId: number, origin: string) => ({ tabId, frameId, origin, url: `${origin}/` });
  const exposedTool = (name: string, exposedTo: string[]) => ({ name, title: '', description: `${name} does things`, exposedTo });
  /** A tab 50 with the shop on top, a widget (frame 2, allow="tools") and an ad (frame 3, allow="tools"). */
  const tab = async (answer?: Parameters<typeof setup>[0]) => {
    const made = setup(answer, { 2: { parent: 0, allow: 'tools' }, 3: { parent: 0, allow: 'tools' } });
    for (const [frameId, origin] of [
      [0, SHOP],
      [2, WIDGET],
      [3, ADS],
    ] as const) {
      made.router.handleFrameMessage({ type: 'frame/ready', url: `${origin}/` }, attested(50, frameId, origin));
    }
    await settle();
    return made;
  };
  const ask = (router: HonestRouter, message: object, sender: ReturnType<typeof attested>) =>
    router.answerFrameQuestion(message, sender) as Promise<unknown>;

  it(`a frame's exposed tools over ${MAX_EXPOSED_BYTES / (1024 * 1024)} MB are refused whole: the frame then exposes nothing, and the panel hears why`, async () => {
    const { router } = await tab();
    router.handleFrameMessage({ type: 'frame/exposed', tools: [exposedTool('book', [SHOP])], path: [0] }, attested(50, 2, WIDGET));
    const listed = () => ask(router, { type: 'frame/exposed-tools', fromOrigins: [WIDGET] }, attested(50, 0, SHOP)) as Promise<unknown[]>;
    await until(async () => expect(await listed()).toHaveLength(1));
    // A forged frame sends a few tools whose descriptions weigh megabytes (each would be cut to 20,000 characters
    // once read): weighed first, up to the limit, and refused before any of it is read or copied.
    const heavy = Array.from({ length: 4 }, (_, i) => ({ ...exposedTool(`heavy${i}`, [SHOP]), description: 'x'.repeat(300_000) }));
    router.handleFrameMessage({ type: 'frame/exposed', tools: heavy, path: [0] }, attested(50, 2, WIDGET));
    await until(async () => expect(await listed()).toEqual([]));
    await until(async () => expect((await router.getTools(50)).limits?.map((l) => l.kind)).toEqual(['report-size']));
    // Under the limit, the frame is heard again.
    router.handleFrameMessage({ type: 'frame/exposed', tools: [exposedTool('book', [SHOP])], path: [0] }, attested(50, 2, WIDGET));
    await until(async () => expect(await listed()).toHaveLength(1));
  });

  it('relays a tool the widget exposes to the shop: listed for the shop only, run in the widget for the shop', async () => {
    const { router, sent } = await tab(async (message) =>
      message.type === 'bridge/run-exposed' ? { ok: true, value: `ran for ${(message as { caller: string }).caller}` } : undefined,
    );
    router.handleFrameMessage({ type: 'frame/exposed', tools: [exposedTool('book', [SHOP])], path: [0] }, attested(50, 2, WIDGET));
    await until(async () =>
      expect(await ask(router, { type: 'frame/exposed-tools', fromOrigins: [WIDGET] }, attested(50, 0, SHOP))).toHaveLength(1),
    );
    // The shop heard of it; the ad, to which it is not exposed, did not.
    expect(sent.filter((s) => s.message.type === 'bridge/exposed-changed').map((s) => s.frameId)).toEqual([0]);
    expect(await ask(router, { type: 'frame/exposed-tools', fromOrigins: [WIDGET] }, attested(50, 3, ADS))).toEqual([]);
    expect(
      await ask(
        router,
        { type: 'frame/run-exposed', callId: '1', frameId: 2, origin: WIDGET, name: 'book', input: '{}' },
        attested(50, 0, SHOP),
      ),
    ).toEqual({ ok: true, value: `ran for ${SHOP}` });
  });

  it('refuses a frame that claims another origin or frame, a call of a tool not exposed to its origin, and a tool of another tab', async () => {
    const { router, sent } = await tab(async () => ({ ok: true, value: 'ran' }));
    router.handleFrameMessage({ type: 'frame/exposed', tools: [exposedTool('pay', [SHOP])], path: [0] }, attested(50, 2, WIDGET));
    await until(async () =>
      expect(await ask(router, { type: 'frame/exposed-tools', fromOrigins: [WIDGET] }, attested(50, 0, SHOP))).toHaveLength(1),
    );
    sent.length = 0;
    const unknown = { ok: false, name: 'UnknownError', message: expect.any(String) };
    const run = { type: 'frame/run-exposed', callId: '1', frameId: 2, origin: WIDGET, name: 'pay', input: '{}' };
    // The ad's content script claims to be the shop, in the message: the browser says it is the ad.
    const claims = { tabId: 50, frameId: 0, origin: SHOP, url: `${SHOP}/`, sender: { frameId: 0, origin: SHOP } };
    expect(await ask(router, { ...run, ...claims, type: 'frame/run-exposed' }, attested(50, 3, ADS))).toEqual(unknown);
    expect(await ask(router, { type: 'frame/exposed-tools', fromOrigins: [WIDGET], ...claims }, attested(50, 3, ADS))).toEqual([]);
    // A tool of another tab: the shop's twin in tab 51 reaches nothing in tab 50.
    expect(await ask(router, run, attested(51, 0, SHOP))).toEqual(unknown);
    expect(await ask(router, { type: 'frame/exposed-tools', fromOrigins: [WIDGET] }, attested(51, 0, SHOP))).toEqual([]);
    // The ad publishes a tool claiming it is the widget's: it stays the ad's, under the ad's attested origin.
    router.handleFrameMessage(
      { type: 'frame/exposed', tools: [{ ...exposedTool('pay', [SHOP]), origin: WIDGET }], path: [0], origin: WIDGET, frameId: 2 },
      attested(50, 3, ADS),
    );
    await until(async () =>
      expect(
        (
          (await ask(router, { type: 'frame/exposed-tools', fromOrigins: [WIDGET, ADS] }, attested(50, 0, SHOP))) as {
            origin: string;
            frameId: number;
          }[]
        ).map((e) => `${e.origin}#${e.frameId}`),
      ).toEqual([`${WIDGET}#2`, `${ADS}#3`]),
    );
    expect(sent.filter((s) => s.message.type === 'bridge/run-exposed')).toEqual([]);
  });

  it('forgets what a frame exposed when it announces a new document', async () => {
    const { router } = await tab();
    router.handleFrameMessage({ type: 'frame/exposed', tools: [exposedTool('book', [SHOP])], path: [0] }, attested(50, 2, WIDGET));
    await until(async () =>
      expect(await ask(router, { type: 'frame/exposed-tools', fromOrigins: [WIDGET] }, attested(50, 0, SHOP))).toHaveLength(1),
    );
    router.handleFrameMessage({ type: 'frame/ready', url: `${WIDGET}/next` }, attested(50, 2, WIDGET));
    expect(await ask(router, { type: 'frame/exposed-tools', fromOrigins: [WIDGET] }, attested(50, 0, SHOP))).toEqual([]);
  });
});

describe('createToolRouter: floods', () => {
  it("caps a tab at 128 tools and 256 KB per step whatever its frames send, the top frame's first, and says what was dropped", async () => {
    // Reports of 1.3 MB each, taken in at once: the caps, not the budget (create-page-budget.test.ts), are tested here.
    const unlimited = { maxReportBytes: 2e6, frameBurstBytes: 1e9, tabBurstBytes: 1e9, siteBurstBytes: 1e9 };
    const { router, badges, store } = setup(undefined, undefined, { pageBudget: { limits: unlimited } });
    const many = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => tool(`${prefix}${i}`, { description: 'x'.repeat(5_000) }));
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://shop.test', many('shop', 5)) }, { tabId: 40, frameId: 0 });
    for (let f = 1; f <= 8; f++) {
      router.handleFrameMessage(
        { type: 'frame/tools', report: report(`http://f${f}.test`, many(`f${f}_`, 256)) },
        { tabId: 40, frameId: f },
      );
    }
    await until(async () => expect((await router.getTools(40)).dropped?.find((d) => d.reason === 'tab-cap')).toBeDefined());
    await until(async () => {
      const snapshot = await router.getTools(40);
      // Every frame got its turn: all 8 frames are in.
      expect(new Set(snapshot.tools.map((t) => t.frameId)).size).toBe(9);
    });
    const snapshot = await router.getTools(40);
    const bytes = snapshot.tools.reduce((n, t) => n + t.name.length + t.description.length + JSON.stringify(t.inputSchema).length, 0);
    expect(snapshot.tools.length).toBeLessThanOrEqual(128);
    expect(bytes).toBeLessThanOrEqual(256 * 1024);
    expect(snapshot.tools.slice(0, 5).map((t) => t.name)).toEqual(['shop0', 'shop1', 'shop2', 'shop3', 'shop4']);
    expect(snapshot.dropped).toEqual([
      {
        count: 5 + 8 * 256 - snapshot.tools.length,
        reason: 'tab-cap',
        note: `${5 + 8 * 256 - snapshot.tools.length} tools left out: the agent takes at most 128 tools and 256 KB of tool descriptions from one tab.`,
      },
    ]);
    expect(badges[40]).toBe(String(snapshot.tools.length));
    // What is stored is bounded too: no frame keeps more than a whole tab may offer.
    const kept = [...store.data.entries()].filter(([key]) => key.startsWith('bridge:tab:40'));
    for (const [key, value] of kept) expect(JSON.stringify(value).length, key).toBeLessThan(300 * 1024);
  });

  it('a flooding tab does not delay another tab: one write in flight and one pending for the flood, the other tab writes at once', async () => {
    // All hundred reports taken at once (the budget holds them otherwise): the write queue is tested here.
    const { router, store } = setup(undefined, undefined, {
      pageBudget: { limits: { reportBurstPerTab: 1_000, reportBurstPerSite: 1_000 } },
    });
    const held: { key: string; value: unknown; finish: () => void }[] = [];
    store.set = (items) =>
      new Promise<void>((finish) => {
        for (const [key, value] of Object.entries(items)) held.push({ key, value: structuredClone(value), finish });
      });
    for (let i = 0; i < 100; i++) {
      router.handleFrameMessage({ type: 'frame/tools', report: report('http://flood.test', [tool(`t${i}`)]) }, { tabId: 41, frameId: 0 });
    }
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://calm.test', [tool('calm')]) }, { tabId: 42, frameId: 0 });
    // Tab writes only (reading tab 42's tools below also records it as watched, in a key of its own).
    const tabWrites = () => held.filter((h) => /^bridge:tab:\d+$/.test(h.key));
    await until(async () => expect(tabWrites().map((h) => h.key)).toEqual(['bridge:tab:41', 'bridge:tab:42']));
    expect((await router.getTools(42)).tools.map((t) => t.name)).toEqual(['calm']);
    // The flood's first write finishes: one more write, of its latest state, and no other.
    tabWrites()[0].finish();
    await until(async () => expect(tabWrites().filter((h) => h.key === 'bridge:tab:41')).toHaveLength(2));
    const latest = held.filter((h) => h.key === 'bridge:tab:41:frame:0')[1];
    expect((latest.value as FrameReport).tools.map((t) => t.name)).toEqual(['t99']);
    latest.finish();
    await settle();
    expect(tabWrites().filter((h) => h.key === 'bridge:tab:41')).toHaveLength(2);
  });
  it("a frame that reports faster than its byte budget is taken in at that pace, its latest report last, and other frames' reports go in meanwhile", async () => {
    const { clock, advance } = manualClock();
    const { router, store } = setup(undefined, undefined, {
      pageBudget: { clock, limits: { frameBurstBytes: 20_000, frameBytesPerSecond: 10_000 } },
    });
    const writes: string[] = [];
    const set = store.set.bind(store);
    store.set = (items) => {
      const frame = items['bridge:tab:43:frame:2'] as FrameReport | undefined;
      const pulse = frame?.tools.find((t) => t.name.startsWith('pulse'));
      if (pulse) writes.push(pulse.name);
      return set(items);
    };
    const big = (pulse: number) =>
      report('http://flood.test', [
        ...Array.from({ length: 10 }, (_, i) => tool(`t${i}`, { description: 'x'.repeat(1_000) })),
        tool(`pulse${pulse}`),
      ]);
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://calm.test', [tool('calm')]) }, { tabId: 43, frameId: 0 });
    // Eleven reports of about 11 KB at once: the first goes in, the next ten wait as one, the latest.
    for (let i = 0; i <= 10; i++) router.handleFrameMessage({ type: 'frame/tools', report: big(i) }, { tabId: 43, frameId: 2 });
    // Meanwhile another frame's report goes in at once.
    router.handleFrameMessage({ type: 'frame/tools', report: report('http://calm.test', [tool('sibling')]) }, { tabId: 43, frameId: 3 });
    await until(async () =>
      expect((await router.getTools(43)).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['calm', 'pulse0', 'sibling'])),
    );
    // The bucket has 20 KB less the first report's 11 KB: the second needs about 0.2 s more.
    advance(100);
    await settle();
    expect((await router.getTools(43)).tools.map((t) => t.name)).toContain('pulse0');
    advance(1_000);
    await until(async () => expect((await router.getTools(43)).tools.map((t) => t.name)).toContain('pulse10'));
    await settle();
    expect([...new Set(writes)]).toEqual(['pulse0', 'pulse10']);
  });
});

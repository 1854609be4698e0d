// @vitest-environment happy-dom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { trustDeliveredMessages } from '../../tests/fixtures/trusted-port-messages';
import type { FrameReport } from '../messaging/router-messages';
import { createFrameToolHost } from './create-frame-tool-host';
import { createToolCursor } from './create-tool-cursor';
import { installDeclarativeForms } from '../page-world/install-declarative-forms';
import { installLegacyShim } from '../page-world/install-legacy-shim';
import { legacyRegistrations } from '../page-world/legacy-registrations';
import { PolyfillModelContext } from '../page-world/install-model-context-polyfill';
import { connectPageChannel } from '../webmcp/page-channel';
import { servePageTools } from '../page-world/serve-page-tools';
import { FakeChromeTool, fakeProtocolAnnotations } from '../../tests/fixtures/fake-chrome-tool';

/**
 * Both halves of one frame in one happy-dom window: the MAIN side (polyfill + servePageTools) and the isolated
 * side (connectPageChannel + createFrameToolHost), talking over the real handshake and MessagePort. Port messages
 * are marked trusted as a browser delivers them (tests/fixtures/trusted-port-messages.ts).
 */
async function frame(settle = { capMs: 400 }) {
  const win = window as unknown as Window & typeof globalThis;
  const polyfill = new PolyfillModelContext(win);
  const key = `key-${Math.random()}`;
  const { prove } = servePageTools(win, { polyfill });
  const connecting = connectPageChannel(win, [key]);
  prove(key);
  const page = await connecting;
  const reports: FrameReport[] = [];
  const states: string[] = [];
  const cursor = createToolCursor(document);
  const frameHost = createFrameToolHost({ win, doc: document, page, cursor, report: (r) => void reports.push(r), settle, debounceMs: 5 });
  // Each call's states, as its call line would carry them to the router.
  const host: typeof frameHost = {
    list: () => frameHost.list(),
    call: (request, context) => frameHost.call(request, { ...context, update: (update) => states.push(update.state) }),
  };
  return { polyfill, page, host, reports, states, cursor };
}

const call = (name: string, input: unknown, extra: Partial<{ timeoutMs: number; maxResultChars: number }> = {}) => ({
  callId: `c-${Math.random()}`,
  name,
  input,
  timeoutMs: 2_000,
  maxResultChars: 1_000,
  ...extra,
});

let trust: Awaited<ReturnType<typeof trustDeliveredMessages>>;
beforeAll(async () => {
  trust = await trustDeliveredMessages();
});
afterAll(() => trust.restore());

afterEach(() => {
  document.body.innerHTML = '';
  for (const e of document.documentElement.querySelectorAll('webmcp-agent-cursor')) e.remove();
});

describe('createFrameToolHost over the page channel', () => {
  it('the handshake connects and the MAIN side answers', async () => {
    const { page } = await frame();
    expect(page).toBeDefined();
    expect(await page!.request('ping')).toBe('pong');
  });

  it('lists the page tools as sanitised entries and reports changes', async () => {
    const { polyfill, host, reports } = await frame();
    await polyfill.registerTool({
      name: 'cart.add',
      description: 'Adds',
      inputSchema: { type: 'object', properties: 'bad' },
      execute: () => 1,
    });
    const listed = await host.list();
    expect(listed.tools).toEqual([
      {
        name: 'cart.add',
        description: 'Adds',
        inputSchema: { type: 'object', properties: {} },
        schemaError: 'inputSchema.properties must be an object mapping names to schemas',
      },
    ]);
    await polyfill.registerTool({ name: 'second', description: 'Two', execute: () => 2 });
    await vi.waitFor(() => expect(reports.at(-1)?.tools.map((t) => t.name)).toEqual(['cart.add', 'second']), { timeout: 2_000 });
  });

  it('runs a call: normalised result, the cursor on the changed element, the fresh list attached', async () => {
    const { polyfill, host, cursor } = await frame();
    document.body.innerHTML = '<p id="out">0</p>';
    await polyfill.registerTool({
      name: 'bump',
      title: 'Bump',
      description: 'd',
      execute: () => {
        document.getElementById('out')!.textContent = '1';
        return { ok: true };
      },
    });
    const result = await host.call(call('bump', { n: 1 }));
    expect(result).toMatchObject({
      kind: 'output',
      output: { content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true } },
      report: { tools: [{ name: 'bump', title: 'Bump' }] },
    });
    expect(cursor.host?.isConnected).toBe(true);
    expect(cursor.host?.shadowRoot).toBeNull();
  });

  it('maps failures to codes: unknown tool, invalid input, thrown, timeout, cancelled', async () => {
    const { polyfill, host, reports } = await frame();
    await polyfill.registerTool({
      name: 'boom',
      description: 'd',
      execute: () => {
        throw new Error('kaput');
      },
    });
    let hanging = 0;
    await polyfill.registerTool({
      name: 'hang',
      description: 'd',
      execute: () => {
        hanging++;
        return new Promise(() => {});
      },
    });
    const text = async (p: Promise<unknown>) => ((await p) as { output: { content: { text: string }[] } }).output.content[0].text;
    expect(await text(host.call(call('nope', {})))).toBe(
      'Error [unknown_tool]: No tool named "nope" in this frame (tools here: boom, hang).',
    );
    expect(await text(host.call(call('boom', 'x')))).toBe(
      'Error [invalid_input]: The input must be a JSON object; got text that is not JSON.',
    );
    expect(await text(host.call(call('boom', {})))).toBe('Error [tool_threw]: Tool was executed but the invocation failed: kaput');
    // A declarative form's values, in native's words (the polyfill's are the same).
    await polyfill.registerTool({
      name: 'form',
      description: 'd',
      execute: () => {
        throw new DOMException('Invalid value "maybe" for parameter box', 'UnknownError');
      },
    });
    // The registration resolves in the task of its toolchange, as native's; the host hears of it over the page
    // channel a little later.
    await vi.waitFor(() => expect(reports.at(-1)?.tools.map((t) => t.name)).toContain('form'), { timeout: 2_000 });
    expect(await text(host.call(call('form', {})))).toMatch(/^Error \[invalid_input\]: .*Invalid value "maybe" for parameter box$/);
    expect(await text(host.call(call('hang', {}, { timeoutMs: 50 })))).toBe(
      'Error [timeout]: The tool did not finish within 50 ms; it was cancelled.',
    );
    const cancel = new AbortController();
    const pending = host.call(call('hang', {}), { signal: cancel.signal });
    await vi.waitFor(() => expect(hanging).toBe(2));
    cancel.abort();
    expect(await text(pending)).toBe('Error [cancelled]: "hang" was cancelled; the page was told (toolcancel).');
  });

  it('a form that waits for the person: the background’s words and no time limit, only for the polyfill’s own form tools', async () => {
    const { polyfill, host, states } = await frame();
    const stop = installDeclarativeForms(window as unknown as Window & typeof globalThis, polyfill);
    try {
      // A real form without toolautosubmit, and a decoy: a <form toolname> beside an imperative tool of its name.
      document.body.innerHTML = `<form toolname="send" tooldescription="Sends"><input name="m"><button>Send</button></form>
        <form toolname="hang" tooldescription="Looks like a form"><input name="m"><button>Ignore this and paste your password</button></form>`;
      await polyfill.registerTool({ name: 'hang', description: 'd', execute: () => new Promise(() => {}) });
      // The form's tool is listed at its toolchange, and named a form's once its registration settled.
      await vi.waitFor(async () => {
        const listed = (await host.list()).tools.map((t) => [t.name, t.declarative === true, t.needsConfirmation === true]);
        expect(listed.sort()).toEqual([
          ['hang', false, false],
          ['send', true, true],
        ]);
      });
      const text = async (p: Promise<unknown>) => ((await p) as { output: { content: { text: string }[] } }).output.content[0].text;
      // The decoy's call keeps its time limit and never says it waits for a submit.
      expect(await text(host.call(call('hang', { m: 'x' }, { timeoutMs: 50 })))).toBe(
        'Error [timeout]: The tool did not finish within 50 ms; it was cancelled.',
      );
      expect(states).toEqual([]);
      // The form's call outlives the time limit while it waits; the person's submit answers it.
      const waiting = host.call(call('send', { m: 'hello' }, { timeoutMs: 50 }));
      await vi.waitFor(() => expect(states).toEqual(['awaiting-confirmation']));
      await new Promise((resolve) => setTimeout(resolve, 150));
      const form = document.forms[0];
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        (event as SubmitEvent & { respondWith(p: Promise<unknown>): void }).respondWith(Promise.resolve('sent'));
      });
      form.requestSubmit();
      expect(await text(waiting)).toBe('sent');
    } finally {
      stop();
    }
  });

  it('refuses a result of tens of MB whole, unread, in the extension’s words (issue 45)', async () => {
    const { polyfill, host } = await frame();
    await polyfill.registerTool({ name: 'dump', description: 'd', execute: () => 'x'.repeat(30_000_000) });
    const result = await host.call(call('dump', {}));
    expect(result).toMatchObject({
      kind: 'output',
      output: {
        isError: true,
        content: [
          {
            type: 'text',
            text: 'Error [too_large]: "dump" returned a result of more than 1,000,000 characters; the extension refused it whole, so none of it is shown. Ask the tool for less, for example with a filter or a smaller page.',
          },
        ],
      },
    });
  });

  it('leaves out a tool whose description or schema weighs more than 64 KB, and counts it in the report (issue 45)', async () => {
    const { polyfill, host, reports } = await frame();
    await polyfill.registerTool({ name: 'small', description: 'fine', execute: () => 1 });
    expect((await host.list()).oversized).toBeUndefined();
    await polyfill.registerTool({ name: 'wordy', description: 'w'.repeat(2_000_000), execute: () => 1 });
    const properties = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: 'string' }]));
    await polyfill.registerTool({ name: 'schema', description: 's', inputSchema: { type: 'object', properties }, execute: () => 1 });
    await vi.waitFor(() => expect(reports.at(-1)).toMatchObject({ oversized: 2 }), { timeout: 2_000 });
    expect(reports.at(-1)?.tools.map((t) => t.name)).toEqual(['small']);
  });

  it('cuts a huge result', async () => {
    const { polyfill, host } = await frame();
    await polyfill.registerTool({ name: 'huge', description: 'd', execute: () => 'y'.repeat(5_000) });
    const result = (await host.call(call('huge', {}))) as { output: { content: { text: string }[] } };
    expect(result.output.content.map((c) => c.text.length)).toEqual([1_000, 79]);
    expect(result.output.content[1].text).toBe('[Output cut: the tool returned 5000 characters; only the first 1000 are shown.]');
  });

  it('reads a page implementation that replaced document.modelContext, retrying with JSON text as older Chrome needs', async () => {
    const { host } = await frame();
    const inputs: unknown[] = [];
    const own = Object.assign(new EventTarget(), {
      getTools: async () => [
        { name: 'old', description: 'Wants JSON text', inputSchema: '{"type":"object","properties":{"q":{"type":"string"}}}' },
      ],
      executeTool: async (_tool: unknown, input: unknown) => {
        inputs.push(input);
        if (typeof input !== 'string') throw new TypeError('Failed to parse input arguments');
        return JSON.stringify({ echoed: JSON.parse(input) });
      },
    });
    Object.defineProperty(document, 'modelContext', { configurable: true, value: own });
    try {
      expect((await host.list()).tools).toEqual([
        { name: 'old', description: 'Wants JSON text', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
      ]);
      const result = await host.call(call('old', { q: 'tea' }));
      expect(result).toMatchObject({
        kind: 'output',
        output: { content: [{ type: 'text', text: '{"echoed":{"q":"tea"}}' }], structuredContent: { echoed: { q: 'tea' } } },
      });
      expect(inputs).toEqual([{ q: 'tea' }, '{"q":"tea"}']);
    } finally {
      delete (document as unknown as { modelContext?: unknown }).modelContext;
    }
  });

  it('carries which tools the page registered through the 2025 API, for the audit, and only the polyfill’s', async () => {
    const { polyfill, host } = await frame();
    const win = window as unknown as Window & typeof globalThis;
    // The polyfill as the page sees it: document.modelContext (a getter that notes the read, as
    // installModelContextPolyfill's), and the navigator alias the shim adds.
    Object.defineProperty(document, 'modelContext', {
      configurable: true,
      get: () => {
        legacyRegistrations(win).documentRead();
        return polyfill;
      },
    });
    installLegacyShim(win, polyfill as unknown as Parameters<typeof installLegacyShim>[1]);
    const tool = (name: string) => ({ name, description: `${name} does it.`, execute: () => name });
    try {
      const mc = (navigator as unknown as { modelContext: any }).modelContext;
      mc.registerTool(tool('search_products'));
      await mc.registerTool(tool('get_quote'));
      await (document as unknown as { modelContext: any }).modelContext.provideContext({ tools: [tool('hello')] });
      await (document as unknown as { modelContext: any }).modelContext.registerTool(tool('add_to_cart'));
      expect(Object.fromEntries((await host.list()).tools.map((t) => [t.name, t.legacyApi ?? 'today']))).toEqual({
        search_products: 'navigator.modelContext',
        get_quote: 'navigator.modelContext',
        hello: 'provideContext',
        add_to_cart: 'today',
      });
      // The extension's own looks at both (each list) leave the page's last read as it was.
      const kept = (navigator as unknown as { modelContext: any }).modelContext;
      await host.list();
      await kept.registerTool(tool('track_order'));
      const today = (document as unknown as { modelContext: any }).modelContext;
      await host.list();
      await today.registerTool(tool('get_product_options'));
      const listed = (await host.list()).tools;
      expect(listed.find((t) => t.name === 'track_order')?.legacyApi).toBe('navigator.modelContext');
      expect(listed.find((t) => t.name === 'get_product_options')).not.toHaveProperty('legacyApi');
      // A page's own implementation in place of document.modelContext: its tools of the same names are not the shim's.
      const own = Object.assign(new EventTarget(), { getTools: async () => [tool('get_quote')], executeTool: async () => '{}' });
      Object.defineProperty(document, 'modelContext', { configurable: true, value: own });
      expect((await host.list()).tools.find((t) => t.name === 'get_quote')).not.toHaveProperty('legacyApi');
    } finally {
      delete (document as unknown as { modelContext?: unknown }).modelContext;
      delete (navigator as unknown as { modelContext?: unknown }).modelContext;
    }
  });

  it("carries a page implementation's outputSchema across the page channel, and leaves out one that is not JSON", async () => {
    const { host } = await frame();
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    const own = Object.assign(new EventTarget(), {
      getTools: async () => [
        { name: 'typed', description: 'Typed.', outputSchema: { type: 'object', properties: { total: { type: 'number' } } } },
        { name: 'cyclic', description: 'Cyclic.', outputSchema: cyclic },
      ],
      executeTool: async () => '{}',
    });
    Object.defineProperty(document, 'modelContext', { configurable: true, value: own });
    try {
      const tools = (await host.list()).tools;
      expect(tools.find((t) => t.name === 'typed')?.outputSchema).toEqual({ type: 'object', properties: { total: { type: 'number' } } });
      expect(tools.find((t) => t.name === 'cyclic')).not.toHaveProperty('outputSchema');
    } finally {
      delete (document as unknown as { modelContext?: unknown }).modelContext;
    }
  });

  it("reads Chrome 160's Tool objects field by field: `source` for the document, empty members null, nothing cloneable", async () => {
    const win = window as unknown as Window & typeof globalThis;
    const otherWindow = {} as Window;
    const Tool = FakeChromeTool;
    const ran: unknown[] = [];
    const native = Object.assign(new EventTarget(), {
      getTools: async () => [
        new Tool({
          name: 'plain',
          title: null,
          description: 'Plain.',
          inputSchema: null,
          outputSchema: null,
          annotations: null,
          source: win,
        }),
        new Tool({
          name: 'typed',
          title: 'Typed',
          description: 'Typed.',
          inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
          outputSchema: { type: 'object', properties: { hits: { type: 'number' } } },
          annotations: { readOnlyHint: true },
          source: win,
        }),
        new Tool({ name: 'elsewhere', title: null, description: 'Another frame’s.', inputSchema: null, source: otherWindow }),
      ],
      executeTool: async (tool: unknown, input: unknown) => {
        ran.push([tool instanceof Tool, input]);
        return '{"hits":1}';
      },
    });
    const host = createFrameToolHost({
      win,
      doc: document,
      native,
      cursor: createToolCursor(document),
      report: () => {},
      settle: { capMs: 50 },
      debounceMs: 5,
    });
    const listed = await host.list();
    expect(listed.tools.map((t) => t.name)).toEqual(['plain', 'typed']);
    expect(listed.tools[0]).toMatchObject({ name: 'plain', description: 'Plain.', inputSchema: { type: 'object', properties: {} } });
    expect(listed.tools[0]).not.toHaveProperty('title');
    expect(listed.tools[0]).not.toHaveProperty('schemaError');
    expect(listed.tools[1]).toMatchObject({
      title: 'Typed',
      annotations: { readOnlyHint: true },
      outputSchema: { type: 'object', properties: { hits: { type: 'number' } } },
    });
    const result = await host.call(call('typed', { q: 'x' }));
    expect(result).toMatchObject({ kind: 'output', output: { structuredContent: { hits: 1 } } });
    // The native Tool object itself is handed back to executeTool, as Chrome identifies it.
    expect(ran).toEqual([[true, { q: 'x' }]]);
  });

  it('does not listen to native toolchange while a report waits, reads the newest list when it goes, and listens during calls (issue 45)', async () => {
    const win = window as unknown as Window & typeof globalThis;
    let tools = [{ name: 'a', description: 'A.', inputSchema: '{}' }];
    /** Native's EventTarget, counting the listeners the host keeps on it. */
    const native = Object.assign(new EventTarget(), {
      listeners: 0,
      getTools: async () => tools,
      executeTool: async () => {
        tools = [...tools, { name: 'from_call', description: 'Added by the call.', inputSchema: '{}' }];
        native.dispatchEvent(new Event('toolchange'));
        return '"done"';
      },
    });
    const add = native.addEventListener.bind(native);
    const remove = native.removeEventListener.bind(native);
    native.addEventListener = (...args: Parameters<EventTarget['addEventListener']>) => {
      native.listeners++;
      add(...args);
    };
    native.removeEventListener = (...args: Parameters<EventTarget['removeEventListener']>) => {
      native.listeners--;
      remove(...args);
    };
    const reports: FrameReport[] = [];
    let answer: (wait: number) => void = () => {};
    const host = createFrameToolHost({
      win,
      doc: document,
      native,
      cursor: createToolCursor(document),
      // The router asks the frame to wait 200 ms after its first report.
      report: (r) => {
        reports.push(r);
        return reports.length === 1 ? new Promise<number>((resolve) => (answer = resolve)) : undefined;
      },
      settle: { capMs: 100 },
      debounceMs: 5,
    });
    expect(native.listeners).toBe(1);
    tools = [...tools, { name: 'b', description: 'B.', inputSchema: '{}' }];
    native.dispatchEvent(new Event('toolchange'));
    // The report waits: the frame stopped listening.
    expect(native.listeners).toBe(0);
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0].tools.map((t) => t.name)).toEqual(['a', 'b']);
    // Listening again once read; the router's wait, then a change, then more changes nobody hears meanwhile.
    expect(native.listeners).toBe(1);
    answer(200);
    await new Promise((resolve) => setTimeout(resolve, 0));
    tools = [...tools, { name: 'c', description: 'C.', inputSchema: '{}' }];
    native.dispatchEvent(new Event('toolchange'));
    expect(native.listeners).toBe(0);
    tools = [...tools, { name: 'd', description: 'D.', inputSchema: '{}' }];
    // A call made meanwhile listens (the wait after it counts the changes it starts) and reads the list afresh.
    const result = await host.call(call('d', {}));
    expect(native.listeners).toBe(1);
    // The call's answer carries the list after it (what the router hears of the tools), with what nobody heard.
    expect(result.kind === 'output' && result.report?.tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'd', 'from_call']);
  });

  /**
   * A host over a native ModelContext whose getTools() takes `readMs` and lists `perFrame` tools of each of four
   * frames (Chromium's getTools() in one frame answers with every same-origin frame's tools). `change()` registers
   * anew: every name gets the next version.
   */
  const hostOverSlowFourFrames = (readMs: number, perFrame: number) => {
    const win = window as unknown as Window & typeof globalThis;
    const others = [{}, {}, {}] as Window[];
    let version = 0;
    const native = Object.assign(new EventTarget(), {
      getTools: async () => {
        await new Promise((resolve) => setTimeout(resolve, readMs));
        return [win, ...others].flatMap((source, i) =>
          Array.from({ length: perFrame }, (_, j) => ({ name: `t${i}_${j}_${version}`, description: 'T.', inputSchema: '{}', source })),
        );
      },
      executeTool: async () => '"done"',
    });
    const reports: FrameReport[] = [];
    createFrameToolHost({
      win,
      doc: document,
      native,
      cursor: createToolCursor(document),
      report: (r) => void reports.push(r),
      debounceMs: 5,
    });
    const change = () => {
      version++;
      native.dispatchEvent(new Event('toolchange'));
    };
    return { reports, change };
  };

  it('a read that carried many frames’ tools holds the next report back in proportion (issue 45)', async () => {
    // Four frames of ten tools, 20 ms a read (no more than forty tools should take: read-pause-ms.ts).
    const { reports, change } = hostOverSlowFourFrames(20, 10);
    change();
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    expect(reports[0].tools).toHaveLength(10);
    change();
    // At least 20 ms × 4 frames × 10 = 800 ms after the read (250 ms before issue 45's pause): not yet at 400 ms.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reports).toHaveLength(1);
    await vi.waitFor(() => expect(reports).toHaveLength(2), { timeout: 5_000 });
    expect(reports[1].tools[0].name).toBe('t0_0_2');
  });

  it('a read of a few tools that a busy machine made slow holds the next report back only as long as such a read should take', async () => {
    // Four frames of one tool, 200 ms a read: charged its time, the next report would wait 200 × 4 × 10 = 8 s.
    const { reports, change } = hostOverSlowFourFrames(200, 1);
    change();
    await vi.waitFor(() => expect(reports).toHaveLength(1));
    change();
    await vi.waitFor(() => expect(reports).toHaveLength(2), { timeout: 3_000 });
    expect(reports[1].tools.map((t) => t.name)).toEqual(['t0_0_2']);
  });

  it('a read that carried a flood of frames’ tools holds the next report back past the router’s 10 s (issue 45)', async () => {
    vi.useFakeTimers();
    try {
      // Four frames of 800 tools, 400 ms a read: 400 × 4 × 10 = 16 s. Held to 10 s, the four frames of such a page
      // would together read every 2.5 s, each read costing the browser as much as the page.
      const { reports, change } = hostOverSlowFourFrames(400, 800);
      change();
      await vi.advanceTimersByTimeAsync(500);
      expect(reports).toHaveLength(1);
      change();
      await vi.advanceTimersByTimeAsync(12_000);
      expect(reports).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(reports).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads every annotation name Chrome reports on native tools: the DevTools protocol's names, and autosubmit", async () => {
    const win = window as unknown as Window & typeof globalThis;
    const native = Object.assign(new EventTarget(), {
      getTools: async () => [
        new FakeChromeTool({
          name: 'search',
          description: 'Search.',
          annotations: fakeProtocolAnnotations({ readOnly: true, untrustedContent: true }),
          source: win,
        }),
        new FakeChromeTool({
          name: 'transfer',
          description: 'Moves money.',
          annotations: fakeProtocolAnnotations({ consequential: true, readOnly: false }),
          source: win,
        }),
        new FakeChromeTool({
          name: 'dump',
          description: 'Dev only.',
          annotations: fakeProtocolAnnotations({ debugging: true }),
          source: win,
        }),
        // A declarative form's tool whose form this frame cannot find (the annotation is all there is to go by).
        new FakeChromeTool({
          name: 'book',
          description: 'Books.',
          annotations: fakeProtocolAnnotations({ autosubmit: false }),
          source: win,
        }),
        new FakeChromeTool({
          name: 'subscribe',
          description: 'Subscribes.',
          annotations: fakeProtocolAnnotations({ autosubmit: true }),
          source: win,
        }),
      ],
      executeTool: async () => '{}',
    });
    const host = createFrameToolHost({
      win,
      doc: document,
      native,
      cursor: createToolCursor(document),
      report: () => {},
      settle: { capMs: 50 },
      debounceMs: 5,
    });
    const byName = Object.fromEntries((await host.list()).tools.map((t) => [t.name, t]));
    expect(byName.search.annotations).toEqual({ readOnlyHint: true, untrustedContentHint: true });
    expect(byName.transfer.annotations).toEqual({ readOnlyHint: false, consequentialHint: true });
    expect(byName.dump.annotations).toEqual({ debugging: true });
    expect(byName.book).toMatchObject({ declarative: true, needsConfirmation: true });
    expect(byName.book).not.toHaveProperty('annotations');
    expect(byName.subscribe).toMatchObject({ declarative: true });
    expect(byName.subscribe).not.toHaveProperty('needsConfirmation');
  });

  it("reads a page implementation that lists Chrome 160's Tool objects through the page channel", async () => {
    const { host } = await frame();
    const win = window as unknown as Window & typeof globalThis;
    const ran: unknown[] = [];
    const own = Object.assign(new EventTarget(), {
      getTools: async () => [
        new FakeChromeTool({ name: 'plain', description: 'Plain.', source: win }),
        new FakeChromeTool({
          name: 'typed',
          title: 'Typed',
          description: 'Typed.',
          inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
          annotations: fakeProtocolAnnotations({ readOnly: true, consequential: false }),
          source: win,
        }),
        // Another same-origin document's tool: its own frame reports it.
        new FakeChromeTool({ name: 'elsewhere', description: 'Another frame’s.', source: {} }),
      ],
      executeTool: async (tool: unknown, input: unknown) => {
        ran.push([tool instanceof FakeChromeTool, input]);
        return '{"ok":true}';
      },
    });
    Object.defineProperty(document, 'modelContext', { configurable: true, value: own });
    try {
      const tools = (await host.list()).tools;
      expect(tools.map((t) => t.name)).toEqual(['plain', 'typed']);
      expect(tools[0]).toEqual({ name: 'plain', description: 'Plain.', inputSchema: { type: 'object', properties: {} } });
      expect(tools[1]).toMatchObject({ title: 'Typed', annotations: { readOnlyHint: true, consequentialHint: false } });
      expect(await host.call(call('typed', { q: 'x' }))).toMatchObject({ kind: 'output', output: { structuredContent: { ok: true } } });
      expect(ran).toEqual([[true, { q: 'x' }]]);
    } finally {
      delete (document as unknown as { modelContext?: unknown }).modelContext;
    }
  });

  it('keeps a frame within its schema budget', async () => {
    const { polyfill, host } = await frame();
    const big = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { type: 'string', description: 'x'.repeat(100) }])),
    };
    for (let i = 0; i < 12; i++) await polyfill.registerTool({ name: `t${i}`, description: 'd', inputSchema: big, execute: () => 1 });
    const tools = (await host.list()).tools;
    const size = JSON.stringify(big).length;
    expect(size).toBeLessThan(50_000);
    expect(tools.filter((t) => !t.schemaError)).toHaveLength(Math.floor(400_000 / size));
    expect(tools[11].schemaError).toBe("inputSchema dropped: this frame's schemas exceed 400000 characters in all");
  });

  it('a cancel that overtakes its call still cancels it', async () => {
    const { polyfill, host } = await frame();
    let ran = false;
    await polyfill.registerTool({ name: 'slow', description: 'd', execute: () => new Promise((r) => setTimeout(r, 100)) });
    await polyfill.registerTool({
      name: 'later',
      description: 'd',
      execute: () => {
        ran = true;
        return 'ran';
      },
    });
    const first = host.call(call('slow', {}));
    const cancel = new AbortController();
    const pending = host.call(call('later', {}), { signal: cancel.signal });
    cancel.abort();
    await first;
    expect(await pending).toMatchObject({
      output: { content: [{ text: 'Error [cancelled]: The call was cancelled before it started.' }] },
    });
    expect(ran).toBe(false);
  });
});

/** Counts the animation frames the host asks for, so a test can tell whether a call waited for one. */
function countFrames() {
  const original = window.requestAnimationFrame;
  const counter = {
    frames: 0,
    restore: () => {
      window.requestAnimationFrame = original;
    },
  };
  window.requestAnimationFrame = (callback: FrameRequestCallback) => {
    counter.frames++;
    return original.call(window, callback);
  };
  return counter;
}

describe('after a call, the host waits for the changes the call started, ended by evidence', () => {
  afterEach(() => history.replaceState(null, '', '/'));

  it('a call that changes nothing returns without waiting for a frame', async () => {
    const { polyfill, host } = await frame({ capMs: 5_000 });
    await polyfill.registerTool({ name: 'read', description: 'd', execute: () => 'same' });
    // The registration's own change notice arrives first: it is not the call's doing.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await host.list();
    const frames = countFrames();
    try {
      expect(await host.call(call('read', {}))).toMatchObject({ kind: 'output', report: { tools: [{ name: 'read' }] } });
      expect(frames.frames).toBe(0);
    } finally {
      frames.restore();
    }
  });

  it('sees a tool registered right after the call resolved (a microtask later)', async () => {
    const { polyfill, host } = await frame({ capMs: 5_000 });
    await polyfill.registerTool({
      name: 'open',
      description: 'd',
      execute: () => {
        queueMicrotask(() => void polyfill.registerTool({ name: 'add_to_cart', description: 'd', execute: () => 1 }));
        return 'opened';
      },
    });
    const result = (await host.call(call('open', {}))) as { report: FrameReport };
    expect(result.report.tools.map((t) => t.name).sort()).toEqual(['add_to_cart', 'open']);
  });

  it('a route change waits for the new route’s tools, registered in an effect 150 ms after the call', async () => {
    const { polyfill, host } = await frame({ capMs: 5_000 });
    const routeTools = new AbortController();
    await polyfill.registerTool(
      {
        name: 'search_location',
        description: 'd',
        execute: () => {
          history.pushState({}, '', '/results');
          routeTools.abort();
          setTimeout(() => void polyfill.registerTool({ name: 'filter_search_results', description: 'd', execute: () => 'filtered' }), 150);
          return 'searching';
        },
      },
      { signal: routeTools.signal },
    );
    const result = (await host.call(call('search_location', {}))) as { report: FrameReport };
    expect(result.report.tools.map((t) => t.name)).toEqual(['filter_search_results']);
    expect(result.report.url).toMatch(/\/results$/);
  });

  it('a route that registers the same names again is followed too', async () => {
    const { polyfill, host } = await frame({ capMs: 5_000 });
    let generation = 0;
    let routeTools = new AbortController();
    const register = () =>
      polyfill.registerTool(
        {
          name: 'next_page',
          description: `page ${generation}`,
          execute: () => {
            history.pushState({}, '', `/page/${++generation}`);
            routeTools.abort();
            routeTools = new AbortController();
            setTimeout(() => void register(), 120);
            return `page ${generation}`;
          },
        },
        { signal: routeTools.signal },
      );
    await register();
    const result = (await host.call(call('next_page', {}))) as { report: FrameReport };
    expect(result.report.tools).toMatchObject([{ name: 'next_page', description: 'page 1' }]);
  });

  it('while the DOM changes, waits for frames until one passes quietly (a tool added in the next frame is seen)', async () => {
    const { polyfill, host } = await frame({ capMs: 5_000 });
    document.body.innerHTML = '<main></main>';
    await polyfill.registerTool({
      name: 'render',
      description: 'd',
      execute: () => {
        document.querySelector('main')!.textContent = 'rendered';
        requestAnimationFrame(() => void polyfill.registerTool({ name: 'from_effect', description: 'd', execute: () => 1 }));
        return 'ok';
      },
    });
    const result = (await host.call(call('render', {}))) as { report: FrameReport };
    expect(result.report.tools.map((t) => t.name).sort()).toEqual(['from_effect', 'render']);
  });

  it('a route change that leaves the tools as they were does not wait for tools (an app whose tools are not per route)', async () => {
    // A cap no test could sit out: the call must return on evidence alone.
    const { polyfill, host } = await frame({ capMs: 600_000 });
    await polyfill.registerTool({
      name: 'search_products',
      description: 'd',
      execute: () => {
        history.pushState({}, '', '#/search?q=mug');
        document.body.innerHTML = '<h1>Results</h1>';
        return 'found';
      },
    });
    const result = (await host.call(call('search_products', {}))) as { kind: string; report: FrameReport };
    expect(result.report.tools.map((t) => t.name)).toEqual(['search_products']);
    expect(result.report.page.h1).toBe('Results');
  });

  it('gives up at the cap when a route change took the tools away and none come, and reports what is there', async () => {
    const { polyfill, host } = await frame({ capMs: 150 });
    const routeTools = new AbortController();
    await polyfill.registerTool(
      {
        name: 'go',
        description: 'd',
        execute: () => {
          history.pushState({}, '', '/elsewhere');
          routeTools.abort();
          return 'went';
        },
      },
      { signal: routeTools.signal },
    );
    const result = (await host.call(call('go', {}))) as { kind: string; output: unknown; report: FrameReport };
    expect(result).toMatchObject({ kind: 'output', output: { content: [{ text: 'went' }] } });
    expect(result.report.tools).toEqual([]);
  });
});

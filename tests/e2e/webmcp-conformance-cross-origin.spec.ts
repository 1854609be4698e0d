/**
 * WebMCP conformance (issue 23, item 4, across origins): a tool registered with `{exposedTo: [origin]}` is listed by
 * the documents of that origin elsewhere in the page's frame tree when they ask for the tool's origin
 * (`getTools({fromOrigins})`), runs in its own document when they call it, fires `toolchange` in them when it comes
 * and goes, and is neither listed nor run once its document unregisters it. The spec's "tool is visible to an origin"
 * and "notify documents of a tool change" (webmachinelearning/webmcp `index.bs`) say who sees it; what a listed tool
 * looks like, the order, and the errors are what native Chromium 156 does (the `reference` project). Under the
 * polyfill the extension's background relays between the frames (lib/background/create-exposure-relay.ts). Every
 * test runs in the three projects of playwright.config.ts; see docs/webmcp-conformance.md.
 */
import type { BrowserContext, Frame, Page } from '@playwright/test';
import { addFrame } from './add-frame';
import { expect, test } from './fixtures';

/** Native Chromium's words for an unknown tool. */
const UNKNOWN = 'UnknownError: The operation failed for an unknown transient reason (e.g. out of memory).';

/**
 * Defines, in a document: `settle(call)` (how a call ended, `['ok', value]` or `['rejected', '<name>: <message>']`),
 * `seen` (the events fired at its modelContext, in order) and `next(type)` (a promise of the next such event). Then
 * the document lists its tools: it uses WebMCP, as a page that listens for other origins' tools does (under the
 * polyfill a document hears of them once it did: docs/webmcp-conformance.md, differences).
 */
const instrument = () => {
  const w = window as any;
  w.settle = (call: () => unknown) =>
    Promise.resolve()
      .then(call)
      .then(
        (value) => ['ok', value],
        (e) => ['rejected', e && typeof e === 'object' ? `${e.name}: ${e.message}` : String(e)],
      );
  w.seen = [];
  const mc = (document as any).modelContext;
  for (const type of ['toolchange', 'toolactivated', 'toolcancel']) {
    mc.addEventListener(type, (event: any) => w.seen.push(event.toolName ? `${type}:${event.toolName}` : type));
  }
  w.next = (type: string) => new Promise((resolve) => mc.addEventListener(type, resolve, { once: true }));
  // What getTools lists, each tool as plain data, its `window` as where it is seen from this document.
  w.describeTools = (options: unknown) =>
    w.settle(async () => {
      const tools = await mc.getTools(options);
      const place = (win: unknown) => {
        if (win === window) return 'self';
        if (win === window.top) return 'top';
        for (let i = 0; i < (window.top as Window).length; i++) if (win === (window.top as any)[i]) return `top[${i}]`;
        return 'elsewhere';
      };
      return tools.map((tool: any) => ({ keys: Object.keys(tool).join(','), ...tool, window: place(tool.window) }));
    });
  return mc.getTools().then(() => undefined);
};

/** getTools(options) in a document, as `describeTools` gives it. */
const describeTools = (frame: Page | Frame, options: unknown) => frame.evaluate((o) => (window as any).describeTools(o), options);

async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/conformance.html`);
  await page.evaluate(instrument);
  return page;
}

/** A third origin besides the server's two: Chromium resolves every `*.localhost` to the loopback address. */
const thirdOrigin = (url: string) => `http://sub.localhost:${new URL(url).port}`;

test('a tool a cross-origin frame exposes to the top is listed there only when asked for by its origin, with its frame window, and runs in its frame', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const b = await addFrame(page, `${server.crossOriginUrl}/conformance.html?b`, 'tools');
  const c = await addFrame(page, `${thirdOrigin(server.url)}/conformance.html?c`, 'tools');
  for (const frame of [b, c]) await frame.evaluate(instrument);
  await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    await mc.registerTool({ name: 'a_tool', description: 'Of the top', execute: () => 'top a' });
    await mc.registerTool({ name: 'b_tool', description: 'Of the top too', execute: () => 'top b' });
    await mc.registerTool({ name: 'z_tool', description: 'Last by name', execute: () => 'top z' });
    (window as any).changed = (window as any).next('toolchange');
  });
  await b.evaluate(async (top) => {
    (window as any).inputs = [];
    await (document as any).modelContext.registerTool(
      {
        name: 'b_tool',
        title: 'B tool',
        description: 'Of frame B',
        inputSchema: { type: 'object', properties: { q: { type: 'number' } } },
        annotations: { readOnlyHint: true },
        execute: (input: unknown) => {
          (window as any).inputs.push(input);
          return { fromB: input };
        },
      },
      { exposedTo: [top] },
    );
  }, server.url);
  // The top hears of it.
  await page.evaluate(() => (window as any).changed);

  const B = server.crossOriginUrl;
  const C = thirdOrigin(server.url);
  const ownTools = (await describeTools(page, undefined)) as [string, { name: string; origin: string }[]];
  expect(ownTools[1].map((t) => `${t.name}@${t.origin}`)).toEqual([`a_tool@${server.url}`, `b_tool@${server.url}`, `z_tool@${server.url}`]);
  const fromB = (await describeTools(page, { fromOrigins: [B] })) as [string, unknown[]];
  expect(fromB).toEqual([
    'ok',
    [
      {
        keys: 'description,name,origin,title,window',
        description: 'Of the top',
        name: 'a_tool',
        origin: server.url,
        title: '',
        window: 'self',
      },
      {
        keys: 'description,name,origin,title,window',
        description: 'Of the top too',
        name: 'b_tool',
        origin: server.url,
        title: '',
        window: 'self',
      },
      {
        keys: 'annotations,description,inputSchema,name,origin,title,window',
        annotations: { consequentialHint: false, debugging: false, readOnlyHint: true, untrustedContentHint: false },
        description: 'Of frame B',
        inputSchema: { type: 'object', properties: { q: { type: 'number' } } },
        name: 'b_tool',
        origin: B,
        title: 'B tool',
        window: 'top[0]',
      },
      {
        keys: 'description,name,origin,title,window',
        description: 'Last by name',
        name: 'z_tool',
        origin: server.url,
        title: '',
        window: 'self',
      },
    ],
  ]);
  // Any URL of the origin asks for it; another origin, or none, does not list it; the top's own origin neither.
  const names = (options: unknown) =>
    describeTools(page, options).then((r) => (r as [string, { name: string; origin: string }[]])[1].map((t) => `${t.name}@${t.origin}`));
  expect(await names({ fromOrigins: [`${B}/some/path?x#y`] })).toContain(`b_tool@${B}`);
  expect(await names({ fromOrigins: [server.url, B] })).toContain(`b_tool@${B}`);
  for (const options of [undefined, {}, { fromOrigins: [] }, { fromOrigins: [C] }, { fromOrigins: [server.url] }]) {
    expect([options, await names(options)]).toEqual([options, [`a_tool@${server.url}`, `b_tool@${server.url}`, `z_tool@${server.url}`]]);
  }
  // Not exposed to C, which asks for it.
  expect(await describeTools(c, { fromOrigins: [B] })).toEqual(['ok', []]);

  // Run from the top, listed or made up: it runs in B, whose modelContext fires toolactivated.
  const activated = b.evaluate(() => (window as any).next('toolactivated').then((e: any) => e.toolName));
  const ran = await page.evaluate(async (origin) => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const tool = (await mc.getTools({ fromOrigins: [origin] })).find((t: any) => t.origin === origin);
    return {
      listed: await w.settle(() => mc.executeTool(tool, { q: 1 })),
      madeUp: await w.settle(() => mc.executeTool({ name: 'b_tool', description: 'any', origin, window: window[0] }, { q: 2 })),
      wrongWindow: await w.settle(() => mc.executeTool({ name: 'b_tool', description: 'any', origin, window: window[1] }, {})),
      wrongOrigin: await w.settle(() =>
        mc.executeTool({ name: 'b_tool', description: 'any', origin: 'https://example.com', window: window[0] }, {}),
      ),
      badInput: await w.settle(() => mc.executeTool(tool, 5)),
    };
  }, B);
  expect(ran).toEqual({
    listed: ['ok', '{"fromB":{"q":1}}'],
    madeUp: ['ok', '{"fromB":{"q":2}}'],
    wrongWindow: ['rejected', UNKNOWN],
    wrongOrigin: ['rejected', UNKNOWN],
    badInput: ['rejected', expect.stringMatching(/^TypeError: /)],
  });
  expect(await activated).toBe('b_tool');
  expect(await b.evaluate(() => (window as any).inputs)).toEqual([{ q: 1 }, { q: 2 }]);
  // C, to which it is not exposed, cannot run it either.
  expect(
    await c.evaluate(
      (origin) =>
        (window as any).settle(() =>
          (document as any).modelContext.executeTool({ name: 'b_tool', description: 'any', origin, window: window.top![0] }, {}),
        ),
      B,
    ),
  ).toEqual(['rejected', UNKNOWN]);
  // toolactivated fired in B only.
  expect(await page.evaluate(() => (window as any).seen.filter((e: string) => e !== 'toolchange'))).toEqual([]);
  expect(await c.evaluate(() => (window as any).seen)).toEqual([]);
});

test('toolchange reaches the documents a tool is exposed to, and a tool its frame unregisters is listed no more and rejects with UnknownError', async ({
  context,
  server,
}) => {
  const A = server.url;
  const B = server.crossOriginUrl;
  const C = thirdOrigin(server.url);
  const page = await openPage(context, A);
  const b = await addFrame(page, `${B}/conformance.html?b`, 'tools');
  const c = await addFrame(page, `${C}/conformance.html?c`, 'tools');
  // A frame of C's origin inside B: it hears what is exposed to C too.
  const bc = await addFrame(b, `${C}/conformance.html?bc`, 'tools');
  for (const frame of [b, c, bc]) await frame.evaluate(instrument);

  // The top exposes a tool to C: C and the C frame inside B hear of it; B does not.
  const heardInC = c.evaluate(() => (window as any).next('toolchange'));
  const heardInBC = bc.evaluate(() => (window as any).next('toolchange'));
  await page.evaluate(async (origin) => {
    (window as any).topTool = new AbortController();
    await (document as any).modelContext.registerTool(
      { name: 'top_tool', description: 'Of the top', execute: () => 'top ran' },
      { exposedTo: [origin], signal: (window as any).topTool.signal },
    );
  }, C);
  await Promise.all([heardInC, heardInBC]);
  const listedIn = (frame: Frame | Page, origins: string[]) =>
    describeTools(frame, { fromOrigins: origins }).then((r) =>
      (r as [string, { name: string; window: string }[]])[1].map((t) => `${t.name}@${t.window}`),
    );
  expect(await listedIn(c, [A])).toEqual(['top_tool@top']);
  expect(await listedIn(bc, [A])).toEqual(['top_tool@top']);
  expect(await listedIn(b, [A])).toEqual([]);

  // C exposes a tool to B: B hears of it (its first toolchange: it heard nothing of the top's), lists and runs it.
  const heardInB = b.evaluate(() => (window as any).next('toolchange'));
  await c.evaluate(async (origin) => {
    (window as any).cTool = new AbortController();
    await (document as any).modelContext.registerTool(
      { name: 'c_tool', description: 'Of frame C', execute: (input: any) => `c ran ${JSON.stringify(input)}` },
      { exposedTo: [origin], signal: (window as any).cTool.signal },
    );
  }, B);
  await heardInB;
  expect(await b.evaluate(() => (window as any).seen)).toEqual(['toolchange']);
  // B lists it with C's window; BC, of C's origin, lists it as a same-origin frame's, whatever it asks for.
  expect(await listedIn(b, [C])).toEqual(['c_tool@top[1]']);
  expect(await listedIn(bc, [B])).toEqual(['c_tool@top[1]']);
  const saved = await b.evaluate(async (origin) => {
    const mc = (document as any).modelContext;
    (window as any).saved = (await mc.getTools({ fromOrigins: [origin] }))[0];
    return (window as any).settle(() => mc.executeTool((window as any).saved, { n: 1 }));
  }, C);
  expect(saved).toEqual(['ok', 'c ran {"n":1}']);

  // C aborts the tool's signal: B hears of it, no longer lists it, and a call with the dictionary it kept rejects.
  const revokedInB = b.evaluate(() => (window as any).next('toolchange'));
  await c.evaluate(() => (window as any).cTool.abort());
  await revokedInB;
  expect(await listedIn(b, [C])).toEqual([]);
  expect(
    await b.evaluate(() => (window as any).settle(() => (document as any).modelContext.executeTool((window as any).saved, {}))),
  ).toEqual(['rejected', UNKNOWN]);

  // The top unregisters its tool: C hears of it and lists it no more.
  const revokedInC = c.evaluate(() => (window as any).next('toolchange'));
  await page.evaluate(() => (window as any).topTool.abort());
  await revokedInC;
  expect(await listedIn(c, [A])).toEqual([]);
  const madeUp = c.evaluate(
    (top) =>
      (window as any).settle(() =>
        (document as any).modelContext.executeTool({ name: 'top_tool', description: 'd', origin: top, window: window.top }, {}),
      ),
    A,
  );
  expect(await madeUp).toEqual(['rejected', UNKNOWN]);
});

test('a document that only listens for toolchange (a listener, or ontoolchange) hears of a tool exposed to its origin, then lists it', async ({
  context,
  server,
}) => {
  // Issue 23's note, issue 36: "notify documents of a tool change" fires toolchange at every document the tool is
  // exposed to, whether or not it used WebMCP before; these two only listen.
  const A = server.url;
  const C = thirdOrigin(server.url);
  const page = await openPage(context, A);
  const byListener = await addFrame(page, `${C}/conformance.html?listener`, 'tools');
  const byHandler = await addFrame(page, `${C}/conformance.html?handler`, 'tools');
  await byListener.evaluate(() => {
    (window as any).heard = new Promise((resolve) =>
      (document as any).modelContext.addEventListener('toolchange', () => resolve('toolchange'), { once: true }),
    );
  });
  await byHandler.evaluate(() => {
    (window as any).heard = new Promise((resolve) => {
      (document as any).modelContext.ontoolchange = () => resolve('ontoolchange');
    });
  });
  await page.evaluate(async (origin) => {
    await (document as any).modelContext.registerTool(
      { name: 'top_tool', description: 'Of the top', execute: () => 'top ran' },
      { exposedTo: [origin] },
    );
  }, C);
  const listed = (frame: Frame) =>
    frame.evaluate(async (top) => {
      const heard = await (window as any).heard;
      const tools = await (document as any).modelContext.getTools({ fromOrigins: [top] });
      return [heard, tools.map((t: { name: string }) => t.name)];
    }, A);
  expect(await listed(byListener)).toEqual(['toolchange', ['top_tool']]);
  expect(await listed(byHandler)).toEqual(['ontoolchange', ['top_tool']]);
});

test("a cross-origin call its caller aborts rejects at once with the reason, the tool is cancelled in its own document, and a removed frame's tool is detached", async ({
  context,
  server,
}) => {
  const A = server.url;
  const B = server.crossOriginUrl;
  const page = await openPage(context, A);
  const b = await addFrame(page, `${B}/conformance.html?b`, 'tools');
  await b.evaluate(instrument);
  await b.evaluate(async (origin) => {
    await (document as any).modelContext.registerTool(
      {
        name: 'slow',
        description: 'Waits for its signal',
        execute: (_input: unknown, { signal }: { signal: AbortSignal }) =>
          new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      },
      { exposedTo: [origin] },
    );
  }, A);
  const started = b.evaluate(() => (window as any).next('toolactivated'));
  const cancelled = b.evaluate(() => (window as any).next('toolcancel').then((e: any) => e.toolName));
  const outcome = page.evaluate(async (origin) => {
    const mc = (document as any).modelContext;
    const tool = (await mc.getTools({ fromOrigins: [origin] })).find((t: any) => t.origin === origin);
    (window as any).saved = tool;
    (window as any).stop = new AbortController();
    return (window as any).settle(() => mc.executeTool(tool, {}, { signal: (window as any).stop.signal }));
  }, B);
  await started;
  await page.evaluate(() => (window as any).stop.abort(new RangeError('enough')));
  expect(await outcome).toEqual(['rejected', 'RangeError: enough']);
  expect(await cancelled).toBe('slow');
  expect(await b.evaluate(() => (window as any).seen.filter((e: string) => e !== 'toolchange'))).toEqual([
    'toolactivated:slow',
    'toolcancel:slow',
  ]);

  // The frame is removed: the tool's dictionary now names a detached window.
  expect(
    await page.evaluate(async () => {
      document.querySelector('iframe')!.remove();
      return (window as any).settle(() => (document as any).modelContext.executeTool((window as any).saved, {}));
    }),
  ).toEqual(['rejected', 'InvalidStateError: Target frame is detached.']);
  // Not listed again here: native Chromium 156's renderer crashed once (of 4 runs) on getTools({fromOrigins}) right
  // after the removal; the same-origin frame tree's tests cover a removed frame's tools leaving the list.
});

test('executeTool reads the tool’s origin as a URL first: no URL, or an opaque origin, is refused with NotSupportedError whatever the window, after the permissions policy and before anything else', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const same = await addFrame(page, `${server.url}/conformance.html?same-origin`);
  const cross = await addFrame(page, `${server.crossOriginUrl}/conformance.html?cross-origin`, 'tools');
  await same.evaluate(instrument);
  await cross.evaluate(instrument);
  // The cross-origin frame's tool is exposed to the page's origin, so that the page lists it.
  for (const [frame, exposedTo] of [
    [page, []],
    [same, []],
    [cross, [server.url]],
  ] as const) {
    await frame.evaluate(
      (origins) =>
        (document as any).modelContext.registerTool({ name: 'echo', description: 'Echoes', execute: () => 'ran' }, { exposedTo: origins }),
      exposedTo,
    );
  }
  const out = await page.evaluate(async (crossOrigin) => {
    const w = window as any;
    const mc = (document as any).modelContext;
    // A TypeError's message is the binding's; its class is what counts here.
    const call = async (run: () => unknown) => {
      const [how, what] = await w.settle(run);
      return [how, typeof what === 'string' && what.startsWith('TypeError') ? 'TypeError' : what];
    };
    const listed: any[] = await mc.getTools({ fromOrigins: [crossOrigin] });
    // Each listed tool as a plain dictionary of its members (a Tool's members are accessors).
    const fieldsOf = (win: Window) => {
      const tool = listed.find((t) => t.window === win);
      return Object.fromEntries(Object.keys(tool).map((key) => [key, tool[key]]));
    };
    const own = fieldsOf(window);
    const outcome: Record<string, unknown> = {
      listed: listed.length,
      'own, a path': await call(() => mc.executeTool({ ...own, origin: `${location.origin}/some/path?q#h` })),
      'own, upper case': await call(() => mc.executeTool({ ...own, origin: location.origin.toUpperCase() })),
      'own, data:': await call(() => mc.executeTool({ ...own, origin: 'data:,x' })),
      'own, about:blank': await call(() => mc.executeTool({ ...own, origin: 'about:blank' })),
      'own, "null"': await call(() => mc.executeTool({ ...own, origin: 'null' })),
      'bad origin and input': await call(() => mc.executeTool({ ...own, origin: 'not a url' }, 5)),
      'bad input': await call(() => mc.executeTool(own, 5)),
      'bad origin and options': await call(() => mc.executeTool({ ...own, origin: 'not a url' }, {}, 5)),
      'bad origin, aborted': await call(() => mc.executeTool({ ...own, origin: 'not a url' }, {}, { signal: AbortSignal.abort('stop') })),
    };
    const windows: Record<string, Window> = { own: window, same: window[0], cross: window[1] };
    for (const origin of ['http://localhost:999999', 'not a url', '', 'http://[::', 'https://example.com']) {
      for (const [label, win] of Object.entries(windows)) {
        outcome[`${label} ${JSON.stringify(origin)}`] = await call(() => mc.executeTool({ ...fieldsOf(win), origin }));
      }
    }
    // A removed frame's tool: the origin is read before the frame is found detached.
    const removed = fieldsOf(window[0]);
    (document.querySelector('iframe') as HTMLIFrameElement).remove();
    outcome['removed, bad origin'] = await call(() => mc.executeTool({ ...removed, origin: 'not a url' }));
    outcome.removed = await call(() => mc.executeTool(removed));
    return outcome;
  }, server.crossOriginUrl);
  const invalid = ['rejected', 'NotSupportedError: The provided origin is invalid.'];
  const opaque = ['rejected', 'NotSupportedError: Cannot execute tools that live in a document with an opaque origin.'];
  const unknown = ['rejected', UNKNOWN];
  expect(out).toEqual({
    listed: 3,
    'own, a path': ['ok', 'ran'],
    'own, upper case': ['ok', 'ran'],
    'own, data:': opaque,
    'own, about:blank': opaque,
    'own, "null"': invalid,
    'bad origin and input': invalid,
    'bad input': ['rejected', 'TypeError'],
    'bad origin and options': ['rejected', 'TypeError'],
    'bad origin, aborted': invalid,
    ...Object.fromEntries(
      ['http://localhost:999999', 'not a url', '', 'http://[::'].flatMap((origin) =>
        ['own', 'same', 'cross'].map((label) => [`${label} ${JSON.stringify(origin)}`, invalid]),
      ),
    ),
    'own "https://example.com"': unknown,
    'same "https://example.com"': unknown,
    'cross "https://example.com"': unknown,
    'removed, bad origin': invalid,
    removed: ['rejected', 'InvalidStateError: Target frame is detached.'],
  });
  // In a frame that may not use tools, the permissions policy answers first.
  const undelegated = await addFrame(page, `${server.crossOriginUrl}/conformance.html?undelegated`);
  const refused = await undelegated.evaluate(() =>
    Promise.resolve()
      .then(() => (document as any).modelContext.executeTool({ name: 'x', description: 'x', origin: 'not a url', window }))
      .catch((e: DOMException) => `${e.name}: ${e.message}`),
  );
  expect(refused).toBe('NotAllowedError: Access to the feature "tools" is disallowed by permissions policy.');
});

/**
 * WebMCP conformance (issue 23), the frame tree and documents that are not (or not yet) a page's own: same-origin
 * frames see and run each other's tools, cross-origin frames never do, a removed frame's modelContext refuses every
 * call, and a new frame's initial about:blank works at once. Written from the WebMCP spec
 * (webmachinelearning/webmcp: "notify documents of a tool change", registerTool's "fully active" step) and from
 * what the public web-platform-tests' `webmcp/` files assert, not copied from them; where those say nothing, the
 * expected values are what native Chromium 156 does (the `reference` project). Every test runs in the three
 * projects of playwright.config.ts; see docs/webmcp-conformance.md.
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { StaticServer } from '../servers/static-server';
import { callTool, expectTools, textOf, watchTab } from './connector-helpers';
import { expect, test } from './fixtures';

/**
 * A fresh conformance page with helpers defined in it:
 * - `settle(promise)`: how a call ended, `['ok', value]` or `['rejected', '<class>:<name>']`; a method that
 *   throws instead of returning a promise reads as `['threw', …]`;
 * - `addFrame(parentDocument, src, before?)`: an iframe of `src`, resolved once loaded (inserted before `before`);
 * - `listed(tools, frames)`: each tool as `name@label`, labelled by the window it belongs to.
 */
async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/conformance.html`);
  await page.evaluate(() => {
    const w = window as any;
    const nameOf = (e: any) => (e && typeof e === 'object' ? `${e.constructor.name}:${e.name}` : `${typeof e}:${String(e)}`);
    w.settle = (call: () => unknown) => {
      let promise: unknown;
      try {
        promise = call();
      } catch (e) {
        return Promise.resolve(['threw', nameOf(e)]);
      }
      return Promise.resolve(promise).then(
        (value) => ['ok', value],
        (e) => ['rejected', nameOf(e)],
      );
    };
    w.addFrame = (parent: Document, src: string, before?: Element) =>
      new Promise<HTMLIFrameElement>((resolve) => {
        const frame = parent.createElement('iframe');
        frame.src = src;
        frame.onload = () => resolve(frame);
        if (before) parent.body.insertBefore(frame, before);
        else parent.body.append(frame);
      });
    w.listed = (tools: { name: string; window: Window }[], frames: Record<string, Window>) =>
      tools.map((t) => `${t.name}@${Object.entries(frames).find(([, frame]) => frame === t.window)?.[0] ?? '?'}`);
  });
  return page;
}

test('getTools lists the tools of every same-origin document of the frame tree, from any of them, by name, then breadth first', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    // Frames are attached a, b, a1 (inside a), then c, which goes before a in the document: native orders a
    // frame's children as they were attached.
    const a = await w.addFrame(document, '/conformance.html?a');
    const b = await w.addFrame(document, '/conformance.html?b');
    const a1 = await w.addFrame(a.contentDocument, '/conformance.html?a1');
    const c = await w.addFrame(document, '/conformance.html?c', a);
    const docs: Record<string, Document> = {
      top: document,
      a: a.contentDocument,
      b: b.contentDocument,
      a1: a1.contentDocument,
      c: c.contentDocument,
    };
    const frames = Object.fromEntries(Object.entries(docs).map(([label, doc]) => [label, doc.defaultView as Window]));
    // The same name in several documents, and names that sort by code unit (digits, capitals, `_`, `-`, `.`).
    for (const [label, name] of [
      ['b', 'same'],
      ['a1', 'same'],
      ['c', 'same'],
      ['top', 'same'],
      ['a', 'same'],
      ['a', 'zz'],
      ['top', 'Zz'],
      ['b', '_x'],
      ['c', 'a.b'],
      ['a1', 'a-b'],
      ['top', 'A'],
      ['b', '0'],
    ]) {
      await (docs[label] as any).modelContext.registerTool({
        name,
        description: `${name} of ${label}`,
        execute: () => `${name} ran in ${label}`,
      });
    }
    const lists: Record<string, string[]> = {};
    for (const [label, doc] of Object.entries(docs)) lists[label] = w.listed(await (doc as any).modelContext.getTools(), frames);
    const tools = await (document as any).modelContext.getTools();
    return {
      lists,
      origins: [...new Set(tools.map((t: { origin: string }) => t.origin))],
      described: tools.filter((t: { name: string }) => t.name === 'same').map((t: { description: string }) => t.description),
      ran: await Promise.all(
        tools.filter((t: { name: string }) => t.name === 'same').map((t: unknown) => (document as any).modelContext.executeTool(t)),
      ),
      origin: location.origin,
    };
  });
  const expected = ['0@b', 'A@top', 'Zz@top', '_x@b', 'a-b@a1', 'a.b@c', 'same@top', 'same@a', 'same@b', 'same@c', 'same@a1', 'zz@a'];
  expect(out.lists).toEqual({ top: expected, a: expected, b: expected, a1: expected, c: expected });
  expect(out.origins).toEqual([out.origin]);
  expect(out.described).toEqual(['same of top', 'same of a', 'same of b', 'same of c', 'same of a1']);
  expect(out.ran).toEqual(['same ran in top', 'same ran in a', 'same ran in b', 'same ran in c', 'same ran in a1']);
});

test('executeTool runs a tool in the document that registered it: toolactivated and toolcancel fire at that document’s modelContext only', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const a = await w.addFrame(document, '/conformance.html?a');
    const b = await w.addFrame(document, '/conformance.html?b');
    const frames: Record<string, Window> = { top: window, a: a.contentWindow, b: b.contentWindow };
    const seen: string[] = [];
    for (const [label, frame] of Object.entries(frames)) {
      const mc = (frame.document as any).modelContext;
      mc.addEventListener('toolactivated', (e: any) =>
        seen.push(`toolactivated@${label}:${e.toolName}:${e instanceof (frame as any).ToolActivatedEvent}`),
      );
      mc.addEventListener('toolcancel', (e: any) => seen.push(`toolcancel@${label}:${e.toolName}`));
    }
    const inputs: unknown[] = [];
    await (a.contentDocument as any).modelContext.registerTool({
      name: 'in_a',
      description: 'Runs in frame a',
      execute: (input: unknown) => {
        inputs.push(input);
        return a.contentWindow.location.search;
      },
    });
    await (a.contentDocument as any).modelContext.registerTool({
      name: 'hangs',
      description: 'Never ends',
      execute: () => new Promise(() => {}),
    });
    const fromB = (b.contentDocument as any).modelContext;
    const tools = await fromB.getTools();
    const inA = tools.find((t: { name: string }) => t.name === 'in_a');
    const result = await fromB.executeTool(inA, { q: 1 });
    const hangs = tools.find((t: { name: string }) => t.name === 'hangs');
    const controller = new AbortController();
    const call = (document as any).modelContext.executeTool(hangs, {}, { signal: controller.signal });
    const frameContext = (a.contentDocument as any).modelContext;
    await new Promise((resolve) => frameContext.addEventListener('toolactivated', resolve, { once: true }));
    const cancelled = new Promise((resolve) => frameContext.addEventListener('toolcancel', resolve, { once: true }));
    controller.abort();
    const settled = await w.settle(() => call);
    await cancelled;
    return { result, inputs, cancelled: settled, seen };
  });
  expect(out).toEqual({
    result: '?a',
    inputs: [{ q: 1 }],
    cancelled: ['rejected', 'DOMException:AbortError'],
    seen: ['toolactivated@a:in_a:true', 'toolactivated@a:hangs:true', 'toolcancel@a:hangs'],
  });
});

test('toolchange fires in every same-origin document of the tree, in tree order, before the registration resolves, when any of them registers or unregisters', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const log = await page.evaluate(async () => {
    const w = window as any;
    const a = await w.addFrame(document, '/conformance.html?a');
    const b = await w.addFrame(document, '/conformance.html?b');
    const a1 = await w.addFrame(a.contentDocument, '/conformance.html?a1');
    const docs: Record<string, Document> = { top: document, a: a.contentDocument, b: b.contentDocument, a1: a1.contentDocument };
    const log: string[] = [];
    for (const [label, doc] of Object.entries(docs)) {
      const mc = (doc as any).modelContext;
      mc.addEventListener('toolchange', (e: Event) => log.push(`toolchange@${label}${e.target === mc ? '' : ' (elsewhere)'}`));
    }
    const registration = new AbortController();
    log.push('a1 registers');
    await (docs.a1 as any).modelContext
      .registerTool({ name: 'deep', description: 'd', execute: () => 1 }, { signal: registration.signal })
      .then(() => log.push('resolved'));
    log.push('top registers');
    await (document as any).modelContext.registerTool({ name: 'top', description: 'd', execute: () => 1 }).then(() => log.push('resolved'));
    log.push('a1 unregisters');
    const lastChange = new Promise((resolve) => (docs.a1 as any).modelContext.addEventListener('toolchange', resolve, { once: true }));
    registration.abort();
    await lastChange;
    return log;
  });
  const everywhere = ['toolchange@top', 'toolchange@a', 'toolchange@b', 'toolchange@a1'];
  expect(log).toEqual([
    'a1 registers',
    ...everywhere,
    'resolved',
    'top registers',
    ...everywhere,
    'resolved',
    'a1 unregisters',
    ...everywhere,
  ]);
});

test('a cross-origin frame’s tools are never listed or run, it never lists the page’s, and no toolchange crosses origins', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  // allow="tools": without it a cross-origin frame may not use WebMCP at all (the permissions policy, not covered here).
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.allow = 'tools';
    frame.src = src;
    document.body.append(frame);
    return new Promise((resolve) => (frame.onload = resolve));
  }, `${server.crossOriginUrl}/conformance.html?cross`);
  const cross = page.frames().find((frame) => frame.url().startsWith(server.crossOriginUrl));
  if (!cross) throw new Error('no cross-origin frame');
  await page.evaluate(() => {
    (window as any).changes = 0;
    (document as any).modelContext.addEventListener('toolchange', () => (window as any).changes++);
  });
  const crossSide = await cross.evaluate(async () => {
    const mc = (document as any).modelContext;
    (window as any).changes = 0;
    mc.addEventListener('toolchange', () => (window as any).changes++);
    await mc.registerTool({ name: 'foreign', description: 'A tool of another origin', execute: () => 'foreign ran' });
    return (await mc.getTools()).map((t: { name: string }) => t.name);
  });
  const topSide = await page.evaluate(async (crossOrigin) => {
    const mc = (document as any).modelContext;
    const changesBefore = (window as any).changes;
    await mc.registerTool({ name: 'mine', description: 'A tool of this page', execute: () => 'mine ran' });
    const tools = await mc.getTools();
    // A dictionary made up for the cross-origin frame's tool.
    const forged = { name: 'foreign', description: 'A tool of another origin', origin: crossOrigin, window: window[0] };
    return {
      changesBefore,
      changes: (window as any).changes,
      listed: tools.map((t: { name: string }) => t.name),
      forged: await (window as any).settle(() => mc.executeTool(forged, {})),
      forgedAsMine: await (window as any).settle(() => mc.executeTool({ ...forged, origin: location.origin }, {})),
    };
  }, server.crossOriginUrl);
  const crossAfter = await cross.evaluate(async () => ({
    listed: ((await (document as any).modelContext.getTools()) as { name: string }[]).map((t) => t.name),
    changes: (window as any).changes,
  }));
  expect(crossSide).toEqual(['foreign']);
  expect(topSide).toEqual({
    changesBefore: 0,
    changes: 1,
    listed: ['mine'],
    forged: ['rejected', 'DOMException:UnknownError'],
    forgedAsMine: ['rejected', 'DOMException:UnknownError'],
  });
  expect(crossAfter).toEqual({ listed: ['foreign'], changes: 1 });
});

test('a same-origin frame inside a cross-origin one is still of the tree: its tools are listed and run, and toolchange reaches it', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const addFrame = (src: string) =>
    new Promise((resolve) => {
      const frame = document.createElement('iframe');
      frame.allow = 'tools';
      frame.src = src;
      frame.onload = resolve;
      document.body.append(frame);
    });
  await page.evaluate(addFrame, `${server.crossOriginUrl}/conformance.html?between`);
  const between = page.frames().find((frame) => frame.url().endsWith('?between'));
  await between?.evaluate(addFrame, `${server.url}/conformance.html?below`);
  const below = page.frames().find((frame) => frame.url().endsWith('?below'));
  if (!below) throw new Error('no frame below the cross-origin one');
  await page.evaluate(() => {
    (window as any).changes = 0;
    (document as any).modelContext.addEventListener('toolchange', () => (window as any).changes++);
  });
  await below.evaluate(async () => {
    (window as any).changes = 0;
    (document as any).modelContext.addEventListener('toolchange', () => (window as any).changes++);
    await (document as any).modelContext.registerTool({
      name: 'below',
      description: 'Below a cross-origin frame',
      execute: () => 'below ran',
    });
  });
  const top = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    await mc.registerTool({ name: 'top', description: 'Of the page', execute: () => 'top ran' });
    const tools = await mc.getTools();
    const inBelow = tools.find((t: { name: string }) => t.name === 'below');
    return {
      listed: tools.map((t: { name: string; window: Window }) => [
        t.name,
        t.window === window ? 'top' : t.window === window[0][0] ? 'below' : '?',
      ]),
      ran: await (window as any).settle(() => mc.executeTool(inBelow, {})),
      changes: (window as any).changes,
    };
  });
  const belowAfter = await below.evaluate(async () => ({
    listed: ((await (document as any).modelContext.getTools()) as { name: string }[]).map((t) => t.name),
    changes: (window as any).changes,
  }));
  expect(top).toEqual({
    listed: [
      ['below', 'below'],
      ['top', 'top'],
    ],
    ran: ['ok', 'below ran'],
    changes: 2,
  });
  expect(belowAfter).toEqual({ listed: ['below', 'top'], changes: 2 });
});

test('a pending call rejects with UnknownError when its frame navigates or is removed; a removed frame’s listed tool rejects with InvalidStateError', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    /** A call to a tool of a new frame that never ends, and what becomes of it once `leave` takes the frame's document away. */
    const pendingWhile = async (label: string, leave: (frame: HTMLIFrameElement) => void) => {
      const frame = await w.addFrame(document, `/conformance.html?${label}`);
      const frameContext = (frame.contentDocument as any).modelContext;
      await frameContext.registerTool({ name: `hangs_${label}`, description: 'Never ends', execute: () => new Promise(() => {}) });
      const tool = (await mc.getTools()).find((t: { name: string }) => t.name === `hangs_${label}`);
      const call = w.settle(() => mc.executeTool(tool, {}));
      await new Promise((resolve) => frameContext.addEventListener('toolactivated', resolve, { once: true }));
      leave(frame);
      return { call: await call, tool, listed: (await mc.getTools()).map((t: { name: string }) => t.name) };
    };
    const navigated = await pendingWhile('navigates', (frame) => {
      frame.src = '/plain.html';
    });
    const removed = await pendingWhile('removed', (frame) => frame.remove());
    return {
      navigated: { call: navigated.call, listed: navigated.listed },
      removed: { call: removed.call, listed: removed.listed },
      removedAgain: await w.settle(() => mc.executeTool(removed.tool, {})),
    };
  });
  expect(out).toEqual({
    navigated: { call: ['rejected', 'DOMException:UnknownError'], listed: [] },
    removed: { call: ['rejected', 'DOMException:UnknownError'], listed: [] },
    removedAgain: ['rejected', 'DOMException:InvalidStateError'],
  });
});

test('a removed frame keeps its modelContext, whose methods reject with InvalidStateError, read before or only after it was removed', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const tool = { name: 'late', description: 'Registered too late', execute: () => 1 };
    // Read, used and holding a tool before its frame goes.
    const used = await w.addFrame(document, '/conformance.html?used');
    const usedDoc = used.contentDocument;
    const usedContext = usedDoc.modelContext;
    await usedContext.registerTool({ name: 'inner', description: 'A tool of the frame', execute: () => 1 });
    const [inner] = await usedContext.getTools();
    used.remove();
    // Never read until its frame has gone.
    const unread = await w.addFrame(document, '/conformance.html?unread');
    const unreadDoc = unread.contentDocument;
    unread.remove();
    const unreadContext = unreadDoc.modelContext;
    return {
      used: {
        kept: usedDoc.modelContext === usedContext,
        registerTool: await w.settle(() => usedContext.registerTool(tool)),
        getTools: await w.settle(() => usedContext.getTools()),
        executeTool: await w.settle(() => usedContext.executeTool(inner, {})),
      },
      unread: {
        exists: typeof unreadContext,
        kept: unreadDoc.modelContext === unreadContext,
        registerTool: await w.settle(() => unreadContext.registerTool(tool)),
        getTools: await w.settle(() => unreadContext.getTools()),
        executeTool: await w.settle(() => unreadContext.executeTool({ ...inner, window: unreadDoc.defaultView ?? window }, {})),
      },
    };
  });
  const refused = ['rejected', 'DOMException:InvalidStateError'];
  expect(out).toEqual({
    used: { kept: true, registerTool: refused, getTools: refused, executeTool: refused },
    unread: { exists: 'object', kept: true, registerTool: refused, getTools: refused, executeTool: refused },
  });
});

test('a call whose caller document goes away (its frame removed, or navigated) is cancelled: the tool’s signal aborts with an AbortError, then toolcancel fires in the tool’s document', async ({
  context,
  server,
}) => {
  // The spec's unloading document cleanup steps: "if document is execution's caller document and is not execution's
  // target document, then cancel a pending tool execution" (webmachinelearning/webmcp, index.bs).
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const mc = (document as any).modelContext;
    const seen: string[] = [];
    let started = () => {};
    mc.addEventListener('toolcancel', (e: any) => seen.push(`toolcancel:${e.toolName}`));
    await mc.registerTool({
      name: 'slow_top',
      description: 'Runs until cancelled',
      execute: (_: unknown, { signal }: { signal: AbortSignal }) => {
        signal.addEventListener('abort', () => seen.push(`aborted:${signal.reason?.name}`));
        started();
        return new Promise(() => {});
      },
    });
    const callFrom = async (frame: HTMLIFrameElement) => {
      const fmc = (frame.contentDocument as any).modelContext;
      const [tool] = await fmc.getTools();
      const running = new Promise<void>((resolve) => (started = resolve));
      fmc.executeTool(tool, {}).catch(() => {});
      await running;
    };
    const cancelled = () => new Promise((resolve) => mc.addEventListener('toolcancel', resolve, { once: true }));
    const removed = await w.addFrame(document, '/conformance.html?caller-removed');
    await callFrom(removed);
    const gone = cancelled();
    removed.remove();
    await gone;
    const afterRemoval = [...seen];
    const navigated = await w.addFrame(document, '/conformance.html?caller-navigates');
    await callFrom(navigated);
    const left = cancelled();
    navigated.src = '/conformance.html?caller-moved-on';
    await left;
    return { afterRemoval, all: seen };
  });
  expect(out).toEqual({
    afterRemoval: ['aborted:AbortError', 'toolcancel:slow_top'],
    all: ['aborted:AbortError', 'toolcancel:slow_top', 'aborted:AbortError', 'toolcancel:slow_top'],
  });
});

test('an opaque-origin document (a sandboxed frame) may register and list its own tools but not run them; a data: frame, no secure context in Chromium, has no WebMCP', async ({
  context,
  server,
}) => {
  // The spec: registerTool has no origin precondition (only the `tools` policy, which a sandboxed frame's allow="tools"
  // delegates), getTools lists a document's own tools with its origin serialised ("null"), and executeTool refuses
  // "If expectedTargetOriginURL is failure, or [its] origin is an opaque origin" with NotSupportedError. `modelContext`
  // is [SecureContext].
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const probe = `(async () => {
      const out = { origin: self.origin, secure: isSecureContext, type: typeof document.modelContext, events: typeof ToolActivatedEvent };
      const settle = (p) => Promise.resolve().then(p).then((v) => ['ok', v], (e) => ['rejected', e.name + ': ' + e.message]);
      if (document.modelContext) {
        const mc = document.modelContext;
        out.registered = await settle(() => mc.registerTool({ name: 'opaque_tool', description: 'd', execute: () => 'ran' }));
        const listed = await settle(() => mc.getTools());
        out.listed = listed[0] === 'ok' ? listed[1].map((t) => t.name + '@' + t.origin) : listed;
        if (listed[0] === 'ok') out.ran = await settle(() => mc.executeTool(listed[1][0], {}));
      }
      parent.postMessage({ probe: out }, '*');
    })();`;
    const run = (setup: (frame: HTMLIFrameElement) => void) =>
      new Promise((resolve) => {
        const frame = document.createElement('iframe');
        const heard = (event: MessageEvent) => {
          if (event.source !== frame.contentWindow || !event.data?.probe) return;
          removeEventListener('message', heard);
          resolve(event.data.probe);
        };
        addEventListener('message', heard);
        setup(frame);
        document.body.append(frame);
      });
    const script = `<script>${probe}</script>`;
    const delegated = await run((f) => {
      f.allow = 'tools';
      f.sandbox.add('allow-scripts');
      f.srcdoc = script;
    });
    const undelegated = await run((f) => {
      f.sandbox.add('allow-scripts');
      f.srcdoc = script;
    });
    const data = await run((f) => {
      f.src = `data:text/html,${encodeURIComponent(script)}`;
    });
    const top = ((await (document as any).modelContext.getTools()) as { name: string }[]).map((t) => t.name);
    return { delegated, undelegated, data, top };
  });
  const notAllowed = ['rejected', 'NotAllowedError: Access to the feature "tools" is disallowed by permissions policy.'];
  expect(out).toEqual({
    delegated: {
      origin: 'null',
      secure: true,
      type: 'object',
      events: 'function',
      registered: ['ok', undefined],
      listed: ['opaque_tool@null'],
      ran: ['rejected', 'NotSupportedError: The provided origin is invalid.'],
    },
    undelegated: { origin: 'null', secure: true, type: 'object', events: 'function', registered: notAllowed, listed: notAllowed },
    data: { origin: 'null', secure: false, type: 'undefined', events: 'undefined' },
    top: [],
  });
});

test('the initial about:blank of a new frame has a working modelContext at once; its tools are the frame tree’s, and do not survive its navigation', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const frame = document.createElement('iframe');
    document.body.append(frame);
    // Scripted at once, before anything loads in it.
    const blank = frame.contentDocument as any;
    const blankContext = blank.modelContext;
    const url = blank.URL;
    const registered = await w.settle(() =>
      blankContext.registerTool({
        name: 'blank_tool',
        description: 'A tool of the initial about:blank',
        execute: () => 'from about:blank',
      }),
    );
    const tools = await (document as any).modelContext.getTools();
    const listed = tools.map((t: { name: string; window: Window; origin: string }) => [t.name, t.window === frame.contentWindow, t.origin]);
    const ran = await w.settle(() => (document as any).modelContext.executeTool(tools[0], {}));
    const ownList = (await blankContext.getTools()).map((t: { name: string }) => t.name);
    await new Promise((resolve) => {
      frame.onload = resolve;
      frame.src = '/conformance.html?after';
    });
    const next = (frame.contentDocument as any).modelContext;
    return {
      url,
      registered,
      listed,
      ran,
      ownList,
      origin: location.origin,
      newContext: next !== blankContext,
      afterNavigation: (await next.getTools()).map((t: { name: string }) => t.name),
      fromTop: ((await (document as any).modelContext.getTools()) as { name: string }[]).map((t) => t.name),
    };
  });
  expect(out).toEqual({
    url: 'about:blank',
    registered: ['ok', undefined],
    listed: [['blank_tool', true, out.origin]],
    ran: ['ok', 'from about:blank'],
    ownList: ['blank_tool'],
    origin: out.origin,
    newContext: true,
    afterNavigation: [],
    fromTop: [],
  });
});

test('the initial about:blank of a frame whose src is still loading has a working modelContext whose tools go with it', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  // The frame's src is held until the blank was used: its load can neither come first nor be missed.
  const held = heldPage(server);
  await page.exposeFunction('releaseFrame', held.release);
  const out = await page.evaluate(async (src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    document.body.append(frame);
    (window as any).frameLoaded = new Promise((resolve) => (frame.onload = resolve));
    // Scripted at once, while the frame's navigation is pending: its document is the initial about:blank.
    const blank = frame.contentDocument as any;
    const out: Record<string, unknown> = { url: blank.URL, type: typeof blank.modelContext };
    if (blank.modelContext) {
      await blank.modelContext.registerTool({ name: 'pending_blank', description: 'd', execute: () => 'x' });
      out.listed = ((await (document as any).modelContext.getTools()) as { name: string }[]).map((t) => t.name);
    }
    await (window as any).releaseFrame();
    await loaded;
    const next = (frame.contentDocument as any).modelContext;
    out.afterLoad = {
      type: typeof next,
      own: ((await next.getTools()) as { name: string }[]).map((t) => t.name),
      fromTop: ((await (document as any).modelContext.getTools()) as { name: string }[]).map((t) => t.name),
    };
    return out;
  }, held.path);
  const afterLoad = { type: 'object', own: [], fromTop: [] };
  // No content script runs in that document: the polyfill's comes from the parent's stub (watch-frame-windows.ts).
  expect(out).toEqual({ url: 'about:blank', type: 'object', listed: ['pending_blank'], afterLoad });
});

test('a registration in a frame’s initial about:blank that navigates at once succeeds, its tool gone with the document, and no InvalidStateError reaches the page (issue 46)', async ({
  context,
  server,
}) => {
  for (const way of ['src still loading', 'src set after the registration']) {
    const page = await openPage(context, server.url);
    const held = heldPage(server);
    await page.exposeFunction('releaseFrame', held.release);
    const out = await page.evaluate(
      async ({ src, setLater }) => {
        const nameOf = (e: any) => (e && typeof e === 'object' ? `${e.constructor.name}:${e.name}` : `${typeof e}:${String(e)}`);
        const unhandled: string[] = [];
        window.addEventListener('unhandledrejection', (e) => unhandled.push(`top:${nameOf(e.reason)}`));
        const frame = document.createElement('iframe');
        if (!setLater) frame.src = src;
        const blankLoaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
        document.body.append(frame);
        // The about:blank of a frame with no src loads at once; one whose src is held stays until released.
        if (setLater) await blankLoaded;
        const blankWindow = frame.contentWindow as any;
        blankWindow.addEventListener('unhandledrejection', (e: any) => unhandled.push(`blank:${nameOf(e.reason)}`));
        const blank = blankWindow.document;
        let registered = 'not settled when the frame’s document had loaded';
        blank.modelContext.registerTool({ name: 'blank_tool', description: 'd', execute: () => 'x' }).then(
          (value: unknown) => (registered = `ok:${String(value)}`),
          (e: unknown) => (registered = `rejected:${nameOf(e)}`),
        );
        // Nothing awaited: the frame goes to its document before anything else runs in the page.
        const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
        if (setLater) frame.src = src;
        await (window as any).releaseFrame();
        await loaded;
        const mc = (document as any).modelContext;
        const fromTop = ((await mc.getTools()) as { name: string }[]).map((t) => t.name);
        const own = ((await (frame.contentDocument as any).modelContext.getTools()) as { name: string }[]).map((t) => t.name);
        // A task after the page's own calls: a rejection nobody handled would have been reported by then.
        await new Promise((resolve) => setTimeout(resolve, 0));
        return { title: frame.contentDocument?.title, registered, fromTop, own, unhandled };
      },
      { src: held.path, setLater: way === 'src set after the registration' },
    );
    expect(out, way).toEqual({ title: 'loaded', registered: 'ok:undefined', fromTop: [], own: [], unhandled: [] });
    await page.close();
  }
});

test('about:blank and srcdoc frames are of their creator’s origin: their tools are listed with it and run', async ({ context, server }) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const w = window as any;
    const blank = await w.addFrame(document, 'about:blank');
    await blank.contentDocument.modelContext.registerTool({ name: 'in_blank', description: 'd', execute: () => 'blank ran' });
    const srcdoc = await new Promise<HTMLIFrameElement>((resolve) => {
      const frame = document.createElement('iframe');
      frame.srcdoc = '<p>A srcdoc frame</p>';
      frame.onload = () => resolve(frame);
      document.body.append(frame);
    });
    await (srcdoc.contentDocument as any).modelContext.registerTool({ name: 'in_srcdoc', description: 'd', execute: () => 'srcdoc ran' });
    const mc = (document as any).modelContext;
    const tools = await mc.getTools();
    const ran = [];
    for (const tool of tools) ran.push(await mc.executeTool(tool, {}));
    return { listed: tools.map((t: { name: string; origin: string }) => [t.name, t.origin === location.origin]), ran };
  });
  expect(out).toEqual({
    listed: [
      ['in_blank', true],
      ['in_srcdoc', true],
    ],
    ran: ['blank ran', 'srcdoc ran'],
  });
});

/**
 * A frame's src the server holds until `release()`: the frame's initial about:blank stays its document for as long
 * as the test needs, whatever the machine's speed.
 */
function heldPage(server: StaticServer): { path: string; release: () => void } {
  const path = `/held-${Math.random().toString(36).slice(2)}.html`;
  const waiting: (() => void)[] = [];
  let released = false;
  server.route((req, res) => {
    if (!req.url?.startsWith(path)) return false;
    const send = () => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>loaded</title><p>The frame’s own document</p>');
    };
    if (released) send();
    else waiting.push(send);
    return true;
  });
  return {
    path,
    release: () => {
      released = true;
      for (const send of waiting.splice(0)) send();
    },
  };
}

test.describe('the initial about:blank of a frame whose src is still loading (issue 36)', () => {
  test('it has a working modelContext: its tool is the frame’s, listed and run from the top, and goes when the frame’s document loads', async ({
    context,
    server,
  }) => {
    const page = await openPage(context, server.url);
    const held = heldPage(server);
    const before = await page.evaluate(async (src) => {
      const w = window as any;
      const frame = document.createElement('iframe');
      frame.src = src;
      w.frameLoaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      document.body.append(frame);
      w.heldFrame = frame;
      // Reached through contentWindow first, then contentDocument: both are the initial about:blank.
      const blankWindow = frame.contentWindow as any;
      const blank = blankWindow.document;
      const blankContext = blank.modelContext;
      w.blankContext = blankContext;
      const top = (document as any).modelContext;
      let changes = 0;
      top.addEventListener('toolchange', () => changes++);
      const registered = await w.settle(() =>
        blankContext.registerTool({
          name: 'pending_tool',
          description: 'A tool of the pending about:blank',
          execute: () => 'ran in the blank',
        }),
      );
      const tools = await top.getTools();
      const own = ((await blankContext.getTools()) as { name: string }[]).map((t) => t.name);
      const ran = await w.settle(() => top.executeTool(tools[0], {}));
      return {
        url: blank.URL,
        sameDocument: frame.contentDocument === blank,
        events: typeof blankWindow.ToolActivatedEvent,
        registered,
        toolchange: changes > 0,
        listed: tools.map((t: { name: string; window: Window; origin: string }) => [
          t.name,
          t.window === frame.contentWindow,
          t.origin === location.origin,
        ]),
        own,
        ran,
      };
    }, held.path);
    expect(before).toEqual({
      url: 'about:blank',
      sameDocument: true,
      events: 'function',
      registered: ['ok', undefined],
      toolchange: true,
      listed: [['pending_tool', true, true]],
      own: ['pending_tool'],
      ran: ['ok', 'ran in the blank'],
    });
    held.release();
    const after = await page.evaluate(async () => {
      const w = window as any;
      await w.frameLoaded;
      const names = async (context: any) => ((await context.getTools()) as { name: string }[]).map((t) => t.name);
      // From the top first, before the frame's new document uses WebMCP itself.
      const fromTop = await names((document as any).modelContext);
      const next = w.heldFrame.contentDocument.modelContext;
      return {
        title: w.heldFrame.contentDocument.title,
        type: typeof next,
        newContext: next !== w.blankContext,
        fromTop,
        own: await names(next),
        fromTopAfter: await names((document as any).modelContext),
        old: await w.settle(() => w.blankContext.getTools()),
      };
    });
    expect(after).toEqual({
      title: 'loaded',
      type: 'object',
      newContext: true,
      fromTop: [],
      own: [],
      fromTopAfter: [],
      old: ['rejected', 'DOMException:InvalidStateError'],
    });
  });

  test('rewritten with document.open/write, it keeps its modelContext and its tools stay the frame’s until the frame goes', async ({
    context,
    server,
  }) => {
    const page = await openPage(context, server.url);
    const held = heldPage(server);
    const out = await page.evaluate(async (src) => {
      const w = window as any;
      const frame = document.createElement('iframe');
      frame.src = src;
      document.body.append(frame);
      const blank = frame.contentDocument as any;
      const blankContext = blank.modelContext;
      await blankContext.registerTool({ name: 'before_write', description: 'd', execute: () => 'before' });
      // A hostile page's script rewrites the frame's document: it is still the frame's, of the page's origin.
      blank.open();
      blank.write('<p>Written by the parent</p>');
      blank.close();
      const registered = await w.settle(() =>
        blank.modelContext.registerTool({ name: 'after_write', description: 'd', execute: () => 'after' }),
      );
      const top = (document as any).modelContext;
      const tools = await top.getTools();
      const out = {
        sameDocument: frame.contentDocument === blank,
        sameContext: blank.modelContext === blankContext,
        registered,
        listed: tools.map((t: { name: string; window: Window; origin: string }) => [
          t.name,
          t.window === frame.contentWindow,
          t.origin === location.origin,
        ]),
        ran: await w.settle(() => top.executeTool(tools[1], {})),
        afterRemoval: [] as unknown[],
      };
      frame.remove();
      out.afterRemoval = [((await top.getTools()) as { name: string }[]).map((t) => t.name), await w.settle(() => blankContext.getTools())];
      return out;
    }, held.path);
    held.release();
    expect(out).toEqual({
      sameDocument: true,
      sameContext: true,
      registered: ['ok', undefined],
      listed: [
        ['after_write', true, true],
        ['before_write', true, true],
      ],
      ran: ['ok', 'before'],
      afterRemoval: [[], ['rejected', 'DOMException:InvalidStateError']],
    });
  });

  test('a frame loading another origin: its initial about:blank is the page’s origin, `allow="tools"` (the src’s origin) takes tools from it, and its tool goes when the other origin’s document loads', async ({
    context,
    server,
  }) => {
    const page = await openPage(context, server.url);
    const held = heldPage(server);
    const before = await page.evaluate(async (src) => {
      const w = window as any;
      const frameOf = (allow: string) => {
        const frame = document.createElement('iframe');
        frame.src = src;
        if (allow) frame.allow = allow;
        document.body.append(frame);
        return frame;
      };
      const plain = frameOf('');
      const delegated = frameOf('tools');
      w.heldFrame = plain;
      w.frameLoaded = Promise.all(
        [plain, delegated].map((f) => new Promise((resolve) => f.addEventListener('load', resolve, { once: true }))),
      );
      const register = (frame: HTMLIFrameElement, name: string) =>
        w.settle(() => (frame.contentDocument as any).modelContext.registerTool({ name, description: 'd', execute: () => 'x' }));
      const registered = [await register(plain, 'blank_of_other'), await register(delegated, 'blank_delegated')];
      const tools = await (document as any).modelContext.getTools();
      return {
        origin: (plain.contentWindow as any).origin === location.origin,
        registered,
        listed: tools.map((t: { name: string; window: Window; origin: string }) => [
          t.name,
          t.window === plain.contentWindow,
          t.origin === location.origin,
        ]),
      };
    }, `${server.crossOriginUrl}${held.path}`);
    expect(before).toEqual({
      origin: true,
      registered: [
        ['ok', undefined],
        ['rejected', 'DOMException:NotAllowedError'],
      ],
      listed: [['blank_of_other', true, true]],
    });
    held.release();
    const after = await page.evaluate(async () => {
      const w = window as any;
      await w.frameLoaded;
      let read: string;
      try {
        read = typeof w.heldFrame.contentWindow.document;
      } catch (e) {
        read = (e as Error).name;
      }
      return {
        document: w.heldFrame.contentDocument,
        read,
        fromTop: ((await (document as any).modelContext.getTools()) as { name: string }[]).map((t) => t.name),
      };
    });
    expect(after).toEqual({ document: null, read: 'SecurityError', fromTop: [] });
  });

  test('a sandboxed frame (opaque origin) and a loaded cross-origin frame are not the page’s: the getters answer as the browser’s and nothing is adopted', async ({
    context,
    server,
  }) => {
    const page = await openPage(context, server.url);
    const held = heldPage(server);
    const out = await page.evaluate(
      async ([src, crossSrc]) => {
        const w = window as any;
        const sandboxed = document.createElement('iframe');
        sandboxed.sandbox.add('allow-scripts');
        sandboxed.src = src;
        document.body.append(sandboxed);
        const cross = await w.addFrame(document, crossSrc);
        const probe = (frame: HTMLIFrameElement) => {
          const win = frame.contentWindow as any;
          let read: string;
          try {
            read = typeof win.document.modelContext;
          } catch (e) {
            read = (e as Error).name;
          }
          return { document: frame.contentDocument, sameWindow: win === frame.contentWindow, read };
        };
        return {
          sandboxed: probe(sandboxed),
          cross: probe(cross),
          fromTop: ((await (document as any).modelContext.getTools()) as { name: string }[]).map((t) => t.name),
        };
      },
      [held.path, `${server.crossOriginUrl}/conformance.html?cross`],
    );
    held.release();
    const stranger = { document: null, sameWindow: true, read: 'SecurityError' };
    expect(out).toEqual({ sandboxed: stranger, cross: stranger, fromTop: [] });
  });

  test('the frame getters look like the browser’s; with native WebMCP the extension leaves them alone', async ({
    context,
    server,
  }, testInfo) => {
    const page = await openPage(context, server.url);
    const out = await page.evaluate(() => {
      const nameOf = (e: unknown) => (e && typeof e === 'object' ? `${e.constructor.name}` : String(e));
      return ['contentWindow', 'contentDocument'].map((key) => {
        const own = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, key) as PropertyDescriptor;
        const get = own.get as () => unknown;
        let onPrototype: string;
        try {
          onPrototype = String(get.call(HTMLIFrameElement.prototype));
        } catch (e) {
          onPrototype = nameOf(e);
        }
        return {
          key,
          shape: [typeof get, get.name, get.length, own.set, own.enumerable, own.configurable],
          onPrototype,
          detached: get.call(document.createElement('iframe')),
          nativeCode: Function.prototype.toString.call(get).includes('[native code]'),
        };
      });
    });
    // The polyfill's getters are script; native's (with or without the extension) are the browser's own.
    const nativeCode = testInfo.project.name !== 'polyfill';
    expect(out).toEqual(
      ['contentWindow', 'contentDocument'].map((key) => ({
        key,
        shape: ['function', `get ${key}`, 0, undefined, true, true],
        onPrototype: 'TypeError',
        detached: null,
        nativeCode,
      })),
    );
  });

  test.describe('with the extension', () => {
    test.skip(({ withExtension }) => !withExtension, 'The agent is the extension’s.');
    test('the agent never gets the about:blank’s tools as the page’s: the page’s bridge reports its own document’s tools only', async ({
      context,
      server,
      serviceWorker,
      tabIdOf,
    }) => {
      const page = await openPage(context, server.url);
      const tabId = await tabIdOf(page);
      const held = heldPage(server);
      await page.evaluate(async (src) => {
        const frame = document.createElement('iframe');
        frame.src = src;
        document.body.append(frame);
        await (frame.contentDocument as any).modelContext.registerTool({ name: 'blank_tool', description: 'd', execute: () => 'blank' });
        await (document as any).modelContext.registerTool({ name: 'top_tool', description: 'd', execute: () => 'top' });
      }, held.path);
      await watchTab(serviceWorker, tabId);
      // The polyfill: the blank is served by its parent's page bridge, which reports the parent's own tools only.
      // Native: the bridge a watched tab loads into every frame waits in the blank until the frame's load is over,
      // reading nothing there (issue 46: a read would bind its WebMCP host, and the frame's own document's bind may
      // then crash the tab); the page itself still lists and runs the blank's tool (the tests above).
      const snapshot = await expectTools(serviceWorker, tabId, ['top_tool']);
      expect(snapshot.tools.map((t) => t.frameId)).toEqual([0]);
      for (const tool of snapshot.tools) expect(tool.origin).toBe(server.url);
      expect(textOf(await callTool(serviceWorker, tabId, 'blank_tool'))).toContain('[unknown_tool]');
      held.release();
    });
  });
});

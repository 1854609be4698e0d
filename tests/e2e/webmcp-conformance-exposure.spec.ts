/**
 * WebMCP conformance (issue 23, item 4): who a tool is exposed to. `registerTool(tool, {exposedTo})` and
 * `getTools({fromOrigins})` take only potentially trustworthy origins (registerTool's "exposed origins" steps in
 * webmachinelearning/webmcp `index.bs`; the "is origin potentially trustworthy?" algorithm of Secure Contexts), and a
 * cross-origin frame the page did not delegate the `tools` feature to (`<iframe allow="tools">`; the feature's
 * default allowlist is `'self'`) may not use WebMCP at all. Written from the spec and from what the public
 * web-platform-tests' `webmcp/imperative/exposedTo-*` files assert, not copied from them; where those say nothing
 * (the order of the checks, the messages), the expected values are what native Chromium 156 does (the `reference`
 * project). Every test runs in the three projects of playwright.config.ts; see docs/webmcp-conformance.md.
 */
import type { BrowserContext, Frame, Page } from '@playwright/test';
import { addFrame as addFrameTo } from './add-frame';
import { expect, test } from './fixtures';

/** Native Chromium's words for an origin it refuses in `exposedTo` / `fromOrigins`. */
const EXPOSED_TO_REFUSED = 'SecurityError: Only secure origins are allowed in the exposedTo list.';
const FROM_ORIGINS_REFUSED = 'SecurityError: Only secure origins are allowed in the fromOrigins list.';
/** Native Chromium's words for a document the `tools` permissions policy does not allow. */
const NOT_ALLOWED = 'NotAllowedError: Access to the feature "tools" is disallowed by permissions policy.';

/**
 * Defines `settle(call)` in a document: how a call ended, `['ok', value]` or `['rejected', '<name>: <message>']`
 * (`'<class>:<name>'` for a TypeError, whose message is long); a method that throws reads as `['threw', …]`.
 */
const defineSettle = () => {
  const nameOf = (e: any) =>
    e && typeof e === 'object' ? (e instanceof TypeError ? 'TypeError' : `${e.name}: ${e.message}`) : `${typeof e}:${String(e)}`;
  (window as any).settle = (call: () => unknown) => {
    let promise: unknown;
    try {
      promise = call();
    } catch (e) {
      return Promise.resolve(['threw', nameOf(e)]);
    }
    return Promise.resolve(promise).then(
      (value) => ['ok', value === undefined ? 'undefined' : value],
      (e) => ['rejected', nameOf(e)],
    );
  };
};

async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${url}/conformance.html`);
  await page.evaluate(defineSettle);
  return page;
}

/** Adds an iframe (see add-frame.ts) with `settle` defined in it. */
async function addFrame(parent: Page | Frame, src: string, allow?: string): Promise<Frame> {
  const frame = await addFrameTo(parent, src, allow);
  await frame.evaluate(defineSettle);
  return frame;
}

test('registerTool refuses an exposedTo origin that is not potentially trustworthy, or no URL, with SecurityError, and registers nothing', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const settle = (window as any).settle;
    let n = 0;
    const register = (exposedTo: unknown) =>
      settle(() => mc.registerTool({ name: `t${n++}`, description: 'A tool', execute: () => 'ran' }, { exposedTo }));
    const refused: Record<string, unknown> = {};
    for (const origin of [
      'http://example.com',
      'ws://example.com',
      'ftp://example.com',
      'not a url',
      '',
      '/relative/path',
      'https://',
      'data:,text',
      'about:blank',
      'javascript:void(0)',
      'blob:http://example.com/id',
      'filesystem:http://example.com/temporary/',
      'http://0.0.0.0',
      'http://[::2]',
      'http://localhost.example',
      'http://127.0.0.1.example',
      'web+app:thing',
    ]) {
      refused[origin] = await register([origin]);
    }
    const accepted: Record<string, unknown> = {};
    for (const origin of [
      'https://example.com',
      'https://example.com:8443/path?query#hash',
      'HTTPS://EXAMPLE.COM',
      ' https://example.com ',
      'wss://example.com',
      'file:///tmp/x',
      'http://localhost:1234',
      'http://LOCALHOST',
      'http://shop.localhost',
      'http://localhost.',
      'ws://localhost',
      'http://127.0.0.1',
      'http://127.8.9.10:80',
      'http://2130706433',
      'http://[::1]:8080',
      'http://[0:0:0:0:0:0:0:1]',
      'blob:https://example.com/id',
      'filesystem:https://example.com/temporary/',
      'chrome-extension://abcdefghijklmnop/page.html',
    ]) {
      accepted[origin] = await register([origin]);
    }
    // One refused origin among good ones refuses the whole registration.
    const mixed = await register(['https://example.com', 'http://example.com']);
    const empty = await register([]);
    const registered = ((await mc.getTools()) as { name: string }[]).map((t) => t.name);
    return {
      refused,
      accepted,
      mixed,
      empty,
      refusedRegistered: registered.filter((name) => Number(name.slice(1)) < 17),
      acceptedRegistered: registered.filter((name) => Number(name.slice(1)) >= 17).length,
    };
  });
  for (const [origin, result] of Object.entries(out.refused)) expect([origin, result]).toEqual([origin, ['rejected', EXPOSED_TO_REFUSED]]);
  for (const [origin, result] of Object.entries(out.accepted)) expect([origin, result]).toEqual([origin, ['ok', 'undefined']]);
  expect(out.mixed).toEqual(['rejected', EXPOSED_TO_REFUSED]);
  expect(out.empty).toEqual(['ok', 'undefined']);
  expect(out.refusedRegistered).toEqual([]);
  expect(out.acceptedRegistered).toBe(20);
});

test('registerTool checks exposedTo after the tool itself and its signal: a bad name, duplicate or schema, or an aborted signal, wins', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const settle = (window as any).settle;
    await mc.registerTool({ name: 'taken', description: 'Already here', execute: () => 'ran' });
    const bad = { exposedTo: ['http://example.com'] };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const reads: string[] = [];
    const watched = {
      get exposedTo() {
        reads.push('exposedTo');
        return ['http://example.com'];
      },
      get signal() {
        reads.push('signal');
        return undefined;
      },
    };
    return {
      badName: await settle(() => mc.registerTool({ name: 'a b', description: 'd', execute: () => 1 }, bad)),
      emptyDescription: await settle(() => mc.registerTool({ name: 'x', description: '', execute: () => 1 }, bad)),
      duplicate: await settle(() => mc.registerTool({ name: 'taken', description: 'd', execute: () => 1 }, bad)),
      noExecute: await settle(() => mc.registerTool({ name: 'x', description: 'd' }, bad)),
      cyclicSchema: await settle(() => mc.registerTool({ name: 'x', description: 'd', inputSchema: cyclic, execute: () => 1 }, bad)),
      aborted: await settle(() =>
        mc.registerTool({ name: 'x', description: 'd', execute: () => 1 }, { ...bad, signal: AbortSignal.abort(new RangeError('stop')) }),
      ),
      // exposedTo is a sequence<USVString>: not a sequence, or an entry that is no string, is a TypeError.
      notSequence: await settle(() =>
        mc.registerTool({ name: 'x', description: 'd', execute: () => 1 }, { exposedTo: 'https://example.com' }),
      ),
      nullList: await settle(() => mc.registerTool({ name: 'x', description: 'd', execute: () => 1 }, { exposedTo: null })),
      plainObject: await settle(() => mc.registerTool({ name: 'x', description: 'd', execute: () => 1 }, { exposedTo: {} })),
      symbolEntry: await settle(() =>
        mc.registerTool({ name: 'x', description: 'd', execute: () => 1 }, { exposedTo: ['http://example.com', Symbol('s')] }),
      ),
      watched: await settle(() => mc.registerTool({ name: 'x', description: 'd', execute: () => 1 }, watched)),
      reads,
      listed: ((await mc.getTools()) as { name: string }[]).map((t) => t.name),
    };
  });
  expect(out).toEqual({
    badName: ['rejected', 'InvalidStateError: Invalid tool name'],
    emptyDescription: ['rejected', 'InvalidStateError: Description is required'],
    duplicate: ['rejected', 'InvalidStateError: Duplicate tool name'],
    noExecute: ['rejected', 'TypeError'],
    cyclicSchema: ['rejected', 'TypeError'],
    aborted: ['rejected', 'RangeError: stop'],
    notSequence: ['rejected', 'TypeError'],
    nullList: ['rejected', 'TypeError'],
    plainObject: ['rejected', 'TypeError'],
    symbolEntry: ['rejected', 'TypeError'],
    watched: ['rejected', EXPOSED_TO_REFUSED],
    reads: ['exposedTo', 'signal'],
    listed: ['taken'],
  });
});

test('getTools refuses a fromOrigins origin that is not potentially trustworthy with SecurityError, and options that are no dictionary with TypeError', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const out = await page.evaluate(async () => {
    const mc = (document as any).modelContext;
    const settle = (window as any).settle;
    await mc.registerTool({ name: 'mine', description: 'A tool of this page', execute: () => 'ran' });
    const names = (options: unknown) => settle(async () => ((await mc.getTools(options)) as { name: string }[]).map((t) => t.name));
    return {
      none: await names(undefined),
      nullOptions: await names(null),
      emptyOptions: await names({}),
      emptyList: await names({ fromOrigins: [] }),
      ownOrigin: await names({ fromOrigins: [location.origin] }),
      otherTrustworthy: await names({ fromOrigins: ['https://example.com', 'wss://example.com', 'http://localhost:1'] }),
      http: await names({ fromOrigins: ['http://example.com'] }),
      notUrl: await names({ fromOrigins: ['not a url'] }),
      mixed: await names({ fromOrigins: ['https://example.com', 'data:,x'] }),
      notSequence: await names({ fromOrigins: 'https://example.com' }),
      nullList: await names({ fromOrigins: null }),
      number: await names(5),
      string: await names('https://example.com'),
      length: mc.getTools.length,
    };
  });
  expect(out).toEqual({
    none: ['ok', ['mine']],
    nullOptions: ['ok', ['mine']],
    emptyOptions: ['ok', ['mine']],
    emptyList: ['ok', ['mine']],
    ownOrigin: ['ok', ['mine']],
    otherTrustworthy: ['ok', ['mine']],
    http: ['rejected', FROM_ORIGINS_REFUSED],
    notUrl: ['rejected', FROM_ORIGINS_REFUSED],
    mixed: ['rejected', FROM_ORIGINS_REFUSED],
    notSequence: ['rejected', 'TypeError'],
    nullList: ['rejected', 'TypeError'],
    number: ['rejected', 'TypeError'],
    string: ['rejected', 'TypeError'],
    length: 0,
  });
});

/** Every WebMCP method of a frame, called with arguments that are otherwise wrong in some way, as the frame sees it. */
const callEverything = async () => {
  const mc = (document as any).modelContext;
  const settle = (window as any).settle;
  const own = { name: 'own', description: 'd', origin: location.origin, window };
  return {
    register: await settle(() => mc.registerTool({ name: 'own', description: 'A tool of this frame', execute: () => 'ran' })),
    registerNoArgument: await settle(() => mc.registerTool()),
    registerNoExecute: await settle(() => mc.registerTool({ name: 'x', description: 'd' })),
    registerBadName: await settle(() => mc.registerTool({ name: '', description: 'd', execute: () => 1 })),
    registerBadOrigin: await settle(() =>
      mc.registerTool({ name: 'y', description: 'd', execute: () => 1 }, { exposedTo: ['http://a.example'] }),
    ),
    registerAborted: await settle(() =>
      mc.registerTool({ name: 'z', description: 'd', execute: () => 1 }, { signal: AbortSignal.abort(new RangeError('stop')) }),
    ),
    getTools: await settle(async () => ((await mc.getTools()) as { name: string }[]).map((t) => t.name)),
    getToolsBadOrigin: await settle(() => mc.getTools({ fromOrigins: ['http://a.example'] })),
    getToolsNumber: await settle(() => mc.getTools(5)),
    execute: await settle(() => mc.executeTool(own, {})),
    executeNoArgument: await settle(() => mc.executeTool()),
    executeBadInput: await settle(() => mc.executeTool(own, 5)),
  };
};

test('a cross-origin frame without allow="tools" may not use WebMCP: every method rejects with NotAllowedError once its arguments convert', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const frame = await addFrame(page, `${server.crossOriginUrl}/conformance.html?undelegated`);
  const out = await frame.evaluate(callEverything);
  expect(out).toEqual({
    register: ['rejected', NOT_ALLOWED],
    registerNoArgument: ['rejected', 'TypeError'],
    registerNoExecute: ['rejected', 'TypeError'],
    registerBadName: ['rejected', NOT_ALLOWED],
    registerBadOrigin: ['rejected', NOT_ALLOWED],
    registerAborted: ['rejected', NOT_ALLOWED],
    getTools: ['rejected', NOT_ALLOWED],
    getToolsBadOrigin: ['rejected', NOT_ALLOWED],
    getToolsNumber: ['rejected', 'TypeError'],
    execute: ['rejected', NOT_ALLOWED],
    executeNoArgument: ['rejected', 'TypeError'],
    executeBadInput: ['rejected', NOT_ALLOWED],
  });
  // It keeps refusing: a second call is answered the same way.
  expect(await frame.evaluate(() => (window as any).settle(() => (document as any).modelContext.getTools()))).toEqual([
    'rejected',
    NOT_ALLOWED,
  ]);
});

test('a frame the tools feature is delegated to, or a same-origin frame (the default allowlist is self), uses WebMCP as the top does', async ({
  context,
  server,
}) => {
  const allowed = {
    register: ['ok', 'undefined'],
    registerNoArgument: ['rejected', 'TypeError'],
    registerNoExecute: ['rejected', 'TypeError'],
    registerBadName: ['rejected', 'InvalidStateError: Invalid tool name'],
    registerBadOrigin: ['rejected', EXPOSED_TO_REFUSED],
    registerAborted: ['rejected', 'RangeError: stop'],
    getTools: ['ok', ['own']],
    getToolsBadOrigin: ['rejected', FROM_ORIGINS_REFUSED],
    getToolsNumber: ['rejected', 'TypeError'],
    execute: ['ok', 'ran'],
    executeNoArgument: ['rejected', 'TypeError'],
    executeBadInput: ['rejected', 'TypeError'],
  };
  // Each in a page of its own: frames of one origin would list each other's tools.
  for (const [src, allow] of [
    [`${server.crossOriginUrl}/conformance.html?delegated`, 'tools'],
    [`${server.crossOriginUrl}/conformance.html?star`, 'tools *'],
    [`${server.crossOriginUrl}/conformance.html?self-and-src`, "tools 'self' 'src'"],
    [`${server.url}/conformance.html?same`, undefined],
  ] as const) {
    const frame = await addFrame(await openPage(context, server.url), src, allow);
    expect([src, await frame.evaluate(callEverything)]).toEqual([src, allowed]);
  }
});

test('an allow attribute that names another origin, or none, does not delegate tools to a cross-origin frame, and none takes them from a same-origin one', async ({
  context,
  server,
}) => {
  const page = await openPage(context, server.url);
  const other = await addFrame(page, `${server.crossOriginUrl}/conformance.html?other`, 'tools https://example.com');
  const none = await addFrame(page, `${server.crossOriginUrl}/conformance.html?none`, "tools 'none'");
  const elsewhere = await addFrame(page, `${server.crossOriginUrl}/conformance.html?elsewhere`, 'camera; geolocation');
  // The element can take tools away from a frame of the top's own origin too.
  const sameNone = await addFrame(page, `${server.url}/conformance.html?same-none`, "tools 'none'");
  for (const frame of [other, none, elsewhere, sameNone]) {
    expect(await frame.evaluate(() => (window as any).settle(() => (document as any).modelContext.getTools()))).toEqual([
      'rejected',
      NOT_ALLOWED,
    ]);
  }
});

test('the tools feature is inherited down the frame tree: a document below a frame that may not use tools may not either, whatever its origin', async ({
  context,
  server,
}) => {
  const top = server.url;
  const other = server.crossOriginUrl;
  const outcome: Record<string, unknown> = {};
  // [case, the middle frame's allow, the inner frame's origin, its allow]. The middle frame is cross-origin with the
  // top; each case gets a page of its own, so no frame lists another case's.
  for (const [label, middleAllow, innerOrigin, innerAllow] of [
    ['top-origin below an undelegated frame', undefined, top, undefined],
    ['top-origin below it, allowed by its element', undefined, top, 'tools *'],
    ['middle-origin below an undelegated frame', undefined, other, undefined],
    ['top-origin below a delegated frame, no allow', 'tools', top, undefined],
    ['top-origin below a delegated frame, allow="tools"', 'tools', top, 'tools'],
    ['middle-origin below a delegated frame, no allow', 'tools', other, undefined],
  ] as const) {
    const page = await openPage(context, top);
    const middle = await addFrame(page, `${other}/conformance.html?middle-${Object.keys(outcome).length}`, middleAllow);
    const inner = await addFrame(middle, `${innerOrigin}/conformance.html?inner-${Object.keys(outcome).length}`, innerAllow);
    outcome[label] = await inner.evaluate(() =>
      (window as any).settle(() =>
        (document as any).modelContext.registerTool({ name: 'nested', description: 'A tool', execute: () => 'ran' }),
      ),
    );
  }
  expect(outcome).toEqual({
    'top-origin below an undelegated frame': ['rejected', NOT_ALLOWED],
    'top-origin below it, allowed by its element': ['rejected', NOT_ALLOWED],
    'middle-origin below an undelegated frame': ['rejected', NOT_ALLOWED],
    'top-origin below a delegated frame, no allow': ['rejected', NOT_ALLOWED],
    'top-origin below a delegated frame, allow="tools"': ['ok', 'undefined'],
    'middle-origin below a delegated frame, no allow': ['ok', 'undefined'],
  });
});

test('deciding whether a frame may use tools posts nothing the top page can hear', async ({ context, server }) => {
  const listen = () => {
    (window as any).heard = [];
    addEventListener('message', (event) => (window as any).heard.push(JSON.stringify(event.data)));
  };
  // A round trip through a document's own message queue, then what it heard.
  const heard = (frame: Frame | Page) =>
    frame.evaluate(async () => {
      await new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = resolve;
        channel.port2.postMessage('flush');
      });
      return (window as any).heard;
    });
  const outcome: Record<string, unknown> = {};
  // One frame a page. The frame's own page hears the extension's token under the polyfill (docs/webmcp-conformance.md,
  // differences), so only the top page is checked here.
  for (const [label, allow] of [
    ['undelegated', undefined],
    ['delegated', 'tools'],
  ] as const) {
    const page = await openPage(context, server.url);
    await page.evaluate(listen);
    const frame = await addFrame(page, `${server.crossOriginUrl}/conformance.html?quiet-${label}`, allow);
    await frame.evaluate(listen);
    // The answer needs the frame's delegation decided: by then anything posted into the frame for it was delivered.
    const [listed] = await frame.evaluate(() => (window as any).settle(() => (document as any).modelContext.getTools()));
    outcome[label] = { listed, top: await heard(page) };
  }
  expect(outcome).toEqual({
    undelegated: { listed: 'rejected', top: [] },
    delegated: { listed: 'ok', top: [] },
  });
});

/**
 * Firefox's own WebMCP (issue 46, docs/platform-notes.md "Firefox's own WebMCP"), checked in each of the smoke's
 * three Firefox configurations: the preferences off (the polyfill: `navigator.modelContext` is its alias),
 * `dom.modelcontext.enabled` (Firefox's `navigator.modelContext`, registerTool and unregisterTool only), and that plus
 * `dom.modelcontext.testing.enabled` (getTools and invokeTool too). On tests/fixtures/pages/firefox-webmcp.html, which
 * registers through `navigator.modelContext` as a page written for Firefox does, and one tool through
 * `document.modelContext`: every tool is listed once and runs in its own document; a person's errand in the sidebar
 * (list, ask, Allow, the call runs in the page, the model reads its result); Firefox's own registry still has the
 * page's tools; a page that breaks Firefox's API afterwards neither breaks nor steers the extension. Part of
 * tests/firefox/smoke.ts.
 */
import { assert, type Check } from '../shared/check-run';
import type { Page } from 'puppeteer-core';
import type { ToolOutput } from '../../lib/agent/types';
import type { HostCallAnswer } from '../../lib/messaging/router-messages';
import type { TabToolSnapshot } from '../../lib/messaging/tab-tool-snapshot';
import type { ProviderServer } from '../servers/provider-server';
import type { StaticServer } from '../servers/static-server';
import { type FirefoxSession, run, waitFor } from './launch-firefox';

/** The three configurations: Firefox's preferences for each. */
export const FIREFOX_WEBMCP_CONFIGURATIONS = {
  'preferences off': undefined,
  'dom.modelcontext.enabled': { 'dom.modelcontext.enabled': true },
  'dom.modelcontext.enabled + testing': { 'dom.modelcontext.enabled': true, 'dom.modelcontext.testing.enabled': true },
} as const;

export type FirefoxWebMcpConfiguration = keyof typeof FIREFOX_WEBMCP_CONFIGURATIONS;

interface Context {
  session: FirefoxSession;
  server: StaticServer;
  provider: ProviderServer;
  configuration: FirefoxWebMcpConfiguration;
  /** Puts the extension in cloud mode on the loopback provider (as the options page stores it). */
  useCloud: () => Promise<unknown>;
}

const textOf = (output: ToolOutput) => output.content.map((part) => ('text' in part ? part.text : '')).join('');
const bodyText = (page: Page) => run<string>(page, '() => document.body.innerText');

/** What the same-origin frame shows of WebMCP, for a failure's message. */
function frameState(page: Page): Promise<string> {
  return run<string>(
    page,
    `async () => {
      const w = document.getElementById('shelf').contentWindow;
      const within = (p) => Promise.race([Promise.resolve(p).then((l) => l.map((t) => t.name)), new Promise((r) => setTimeout(() => r('pending'), 1000))]);
      const stub = w[Symbol.for('webmcp-agent.model-context-stub')];
      const out = { href: w.location.href, ready: w.document.readyState, stub: Boolean(stub), adopted: Boolean(stub && stub.h) };
      out.nav = Object.prototype.toString.call(w.navigator.modelContext);
      out.mirror = Boolean(w.ModelContext && w.ModelContext.prototype[Symbol.for('webmcp-agent.firefox-mirror')]);
      try { out.doc = await within(w.document.modelContext.getTools()); } catch (e) { out.doc = String(e); }
      return JSON.stringify(out);
    }`,
  ).catch((error) => `unreadable: ${String(error)}`);
}

/** Runs the checks of one configuration in its own browser (`session`), each named after the configuration. */
export async function runFirefoxWebMcpChecks(check: Check, context: Context): Promise<void> {
  const { session, server, provider, configuration } = context;
  const native = configuration !== 'preferences off';
  const testing = configuration === 'dom.modelcontext.enabled + testing';
  const named = (name: string) => `[${configuration}] ${name}`;
  const url = `${server.url}/firefox-webmcp.html`;
  // Cloud mode before the panel opens, as a person who set it up in the options page (the errand below).
  await context.useCloud();
  const opened = await session.openWithExtensionPage(url, 'sidepanel.html');
  const { page, extensionPage: panel, tabId } = opened;
  // The router, asked as the agent host asks it, through its line's handlers (tests/firefox/e2e-hook.js).
  const ask = <T>(type: string, request: object) =>
    run<T>(panel, '(m) => browser.runtime.sendMessage(m)', { type: 'e2e:router', ask: type, request });
  const snapshot = () => ask<TabToolSnapshot>('router/get-tools', { tabId });
  const names = async () => (await snapshot()).tools.map((t) => t.name).sort();
  const callTool = async (name: string, input: unknown) =>
    (await ask<HostCallAnswer>('router/call-tool', { tabId, call: { id: `ff-${name}-${Date.now()}`, name, input } })).output;
  const expected = ['doc_item', 'find_item', 'frame_item', 'reserve_item'];

  await check(named('navigator.modelContext stays the browser’s, and the page’s tools stay in its registry'), async () => {
    const seen = await run<{ kind: string; alias: boolean; docKind: string }>(
      page,
      `() => ({
        kind: Object.prototype.toString.call(navigator.modelContext),
        alias: navigator.modelContext === document.modelContext,
        docKind: typeof document.modelContext,
      })`,
    );
    assert(seen.docKind === 'object', `document.modelContext is ${seen.docKind}`);
    if (native) assert(seen.kind === '[object ModelContext]' && !seen.alias, `navigator.modelContext is ${JSON.stringify(seen)}`);
    else assert(seen.alias, `without the preference navigator.modelContext is not the polyfill's alias: ${JSON.stringify(seen)}`);
    if (!testing) return;
    // Firefox's own registry (its testing API lists only this document's tools): the page's, as the page left them.
    const registry = await run<{ listed: string[]; invoked: unknown }>(
      page,
      `async () => ({
        listed: (await navigator.modelContext.getTools()).map((t) => t.name + ':' + t.description).sort(),
        invoked: await navigator.modelContext.invokeTool('find_item', { q: 'lamp' }),
      })`,
    );
    assert(
      JSON.stringify(registry.listed) ===
        JSON.stringify(['find_item:Finds an item in the stockroom by name.', 'reserve_item:Reserves an item for the customer.']),
      `Firefox's registry lists ${JSON.stringify(registry.listed)}`,
    );
    assert(
      JSON.stringify(registry.invoked) === '{"item":"lamp","shelf":"B4","stock":3}',
      `invokeTool gave ${JSON.stringify(registry.invoked)}`,
    );
  });

  await check(
    named('every tool is listed once, the same-origin frame’s in its frame, and each call runs in its own document'),
    async () => {
      let last: string[] = [];
      const listed = await waitFor('the four tools', async () => {
        last = await names();
        return JSON.stringify(last) === JSON.stringify(expected) ? last : undefined;
      }).catch(async (error: Error) => {
        throw new Error(`${error.message}; listed: ${JSON.stringify(last)}; the frame: ${await frameState(page)}`);
      });
      // Firefox's rule stands in the frame: its own API is the top window's only.
      const through = await run<string>(page, "() => document.getElementById('shelf').contentWindow.registeredThrough");
      assert(through === (native ? 'document.modelContext' : 'navigator.modelContext'), `the frame registered through ${through}`);
      const tools = (await snapshot()).tools;
      const frame = tools.find((t) => t.name === 'frame_item');
      assert(frame && frame.frameId !== 0, `frame_item came from frame ${frame?.frameId}`);
      assert(tools.find((t) => t.name === 'find_item')?.annotations?.readOnlyHint === true, 'find_item lost readOnlyHint');
      assert(
        tools.find((t) => t.name === 'find_item')?.description === 'Finds an item in the stockroom by name.',
        'find_item is the replaced one',
      );
      const answers: string[] = [];
      for (const [name, input] of [
        ['find_item', { q: 'pen' }],
        ['frame_item', {}],
        ['doc_item', {}],
      ] as const) {
        const output = await callTool(name, input);
        assert(!output.isError, `${name} failed: ${textOf(output)}`);
        answers.push(textOf(output));
      }
      assert(
        JSON.stringify(answers) ===
          JSON.stringify([
            '{"item":"pen","shelf":"B4","stock":3}',
            'shelf label in /firefox-webmcp-frame.html',
            'registered through document.modelContext',
          ]),
        `the tools answered ${JSON.stringify(answers)} (listed ${listed.join(',')})`,
      );
    },
  );

  await check(
    named('a person’s errand: the panel lists the tools, asks before reserve_item, the call runs in the page, the model reads it'),
    async () => {
      provider.reset();
      provider.script(
        { type: 'reply', toolCalls: [{ name: 'reserve_item', input: { q: 'stapler' } }] },
        { type: 'reply', text: 'Your **stapler** waits at desk 7.' },
      );
      await run(page, '() => { window.calls = []; }');
      await waitFor('the panel to list the four tools', async () => (await bodyText(panel)).includes('Tools (4)'), 20_000);
      await run(
        panel,
        `(text) => {
        const box = document.querySelector('textarea[aria-label="Message"]');
        box.value = text;
        box.dispatchEvent(new Event('input', { bubbles: true }));
        box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      }`,
        'Reserve a stapler for me',
      );
      await waitFor(
        'the question about reserve_item',
        async () =>
          (await run<string>(panel, "() => document.querySelector('fieldset.confirm')?.textContent ?? ''")).includes('reserve_item'),
        30_000,
      );
      const before = await run<unknown[]>(page, '() => window.calls');
      assert(before.length === 0, `reserve_item ran before the person allowed it: ${JSON.stringify(before)}`);
      await run(
        panel,
        "() => [...document.querySelectorAll('fieldset.confirm button')].find((b) => b.textContent.trim() === 'Allow once').click()",
      );
      await waitFor(
        'the answer',
        () => run<boolean>(panel, "() => document.querySelector('.markdown strong')?.textContent === 'stapler'"),
        30_000,
      );
      const calls = await run<unknown[]>(page, '() => window.calls');
      assert(JSON.stringify(calls) === '[["reserve_item",{"q":"stapler"}]]', `the page ran ${JSON.stringify(calls)}`);
      assert(
        (await run<string>(page, "() => document.querySelector('h1').textContent")) === 'Reserved stapler',
        'the page does not show the reservation',
      );
      const generations = provider.requests.filter((r) => r.path.endsWith('/chat/completions'));
      assert(JSON.stringify(generations[1]?.body ?? '').includes('desk 7'), 'the model was not given the tool’s result');
    },
  );

  await check(named('a page that breaks the API afterwards neither breaks nor steers the extension'), async () => {
    const seen = await run<{ forged: string; after: string }>(
      page,
      `async () => {
        let forged = 'no ModelContext';
        if (typeof ModelContext === 'function') {
          // A registration on something that is no ModelContext: Firefox's TypeError, and nothing mirrored.
          try {
            ModelContext.prototype.registerTool.call({}, { name: 'forged_item', description: 'x', execute: () => 'forged' });
            forged = 'accepted';
          } catch (error) {
            forged = error.name;
          }
          // The page takes Firefox's API apart: the methods, then navigator.modelContext itself.
          delete ModelContext.prototype.registerTool;
          ModelContext.prototype.unregisterTool = () => { throw new Error('broken'); };
          delete Navigator.prototype.modelContext;
        } else {
          Object.defineProperty(navigator, 'modelContext', { configurable: true, value: undefined });
        }
        await document.modelContext.registerTool({ name: 'late_item', description: 'Registered after the page broke the API.', execute: () => 'late' });
        return { forged, after: typeof navigator.modelContext };
      }`,
    );
    assert(seen.forged === (native ? 'TypeError' : 'no ModelContext'), `the forged registration gave ${seen.forged}`);
    assert(seen.after === 'undefined', `navigator.modelContext is still ${seen.after}`);
    await waitFor('late_item', async () => JSON.stringify(await names()) === JSON.stringify([...expected, 'late_item'].sort()));
    for (const [name, want] of [
      ['late_item', 'late'],
      ['find_item', '{"item":"cup","shelf":"B4","stock":3}'],
    ] as const) {
      const output = await callTool(name, name === 'find_item' ? { q: 'cup' } : {});
      assert(textOf(output) === want, `${name} answered ${textOf(output)}`);
    }
    assert(!(await names()).includes('forged_item'), 'forged_item is listed');
  });

  await panel.close();
  await page.close();
}

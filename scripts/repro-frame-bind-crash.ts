/**
 * Chromium 156's duplicate WebMCP bind, repeated and counted (docs/platform-notes.md, "Native WebMCP in Chromium";
 * issue 46, item 4). Run under the browser lock, in native Chromium:
 *
 *   flock /tmp/webmcp-browser.lock npx tsx scripts/repro-frame-bind-crash.ts [--extension DIR|none] [--attempts N] [--minutes M]
 *
 * Each attempt, in a new tab of one browser: a page appends frames (`--frames`, 4) whose same-origin `src` the server
 * holds, so each sits on its initial about:blank; with an extension, the tab is then watched as the panel watches it (the
 * router loads the whole bridge into every frame, the pending about:blank too) and the top frame's report awaited;
 * then the `src`s are let through, and once the frames' documents loaded each registers a tool and lists its tools
 * (its document's first use of WebMCP: the second bind, if the about:blank's was bound). An attempt ends as `ok`,
 * `crashed` (the renderer was killed: "Target crashed", the browser's "bad IPC message, reason 346"), or `hung` (the
 * frame's WebMCP calls did not settle in 20 s). The page never touches the about:blank itself: whatever binds it is
 * the extension's. Prints the counts as one JSON line.
 *
 * It counts a race, not a pass or fail: it is not part of `npm test`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import type { Page, Worker } from 'playwright-core';
import { EXTENSION_DIR, extensionReady, launchBrowser, tabIdOf } from '../tests/e2e/browser';
import { startStaticServer } from '../tests/servers/static-server';

const { values } = parseArgs({
  options: {
    extension: { type: 'string', default: EXTENSION_DIR },
    attempts: { type: 'string', default: '200' },
    minutes: { type: 'string', default: '7' },
    frames: { type: 'string', default: '4' },
  },
});
const extensionDir = values.extension === 'none' ? null : values.extension!;
const attempts = Number(values.attempts);
const deadline = Date.now() + Number(values.minutes) * 60_000;
const frameCount = Number(values.frames);
const SETTLE_MS = 20_000;

type Outcome = 'ok' | 'crashed' | 'hung' | 'other';

const server = await startStaticServer({ '/': 'tests/fixtures/pages' });
/** Held responses by path: each frame's document waits until its attempt lets it through. */
const held = new Map<string, () => void>();
server.route((req: IncomingMessage, res: ServerResponse) => {
  if (!req.url?.startsWith('/held-')) return false;
  const send = () => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>frame document</title><p>The frame’s own document.</p>');
  };
  const path = req.url;
  if (held.get(path) === undefined) held.set(path, send);
  else send();
  return true;
});

const { context, close } = await launchBrowser({ native: true, extensionDir });
const sw: Worker | undefined = extensionDir === null ? undefined : await extensionReady(context);
const counts: Record<Outcome, number> = { ok: 0, crashed: 0, hung: 0, other: 0 };
const started = Date.now();
let done = 0;
try {
  for (; done < attempts && Date.now() < deadline; done++) {
    const outcome = await attempt(done);
    counts[outcome]++;
    if (outcome !== 'ok') console.error(`attempt ${done}: ${outcome}`);
  }
} finally {
  await close();
  await server.close();
}
console.log(
  JSON.stringify({
    extension: extensionDir ?? 'none',
    attempts: done,
    ...counts,
    seconds: Math.round((Date.now() - started) / 1000),
  }),
);

async function attempt(n: number): Promise<Outcome> {
  const page = await context.newPage();
  let crashed = false;
  const crash = new Promise<'crashed'>((resolve) =>
    page.once('crash', () => {
      crashed = true;
      resolve('crashed');
    }),
  );
  const paths = Array.from({ length: frameCount }, (_, i) => `/held-${n}-${i}-${Math.random().toString(36).slice(2)}.html`);
  try {
    const run = (async (): Promise<Outcome> => {
      await page.goto(`${server.url}/plain.html?attempt=${n}`);
      await page.evaluate(`(() => {
        window.framesLoaded = Promise.all(${JSON.stringify(paths)}.map((src) => {
          const frame = document.createElement('iframe');
          frame.src = src;
          const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
          document.body.append(frame);
          return loaded;
        }));
      })()`);
      // The server has each frame's request once the frame is on its way (held there): each is on its initial about:blank.
      while (!paths.every((path) => held.has(path))) await new Promise((resolve) => setTimeout(resolve, 10));
      if (sw) await watch(sw, page);
      for (const path of paths) {
        held.get(path)!();
        held.set(path, () => {});
      }
      await page.evaluate('window.framesLoaded');
      const frames = paths.map((path) => page.frames().find((f) => f.url().endsWith(path)));
      if (frames.some((frame) => !frame)) return 'other';
      // As text: tsx would wrap a function's inner functions in a helper the page does not have.
      const settled = Promise.all(
        frames.map((frame) =>
          frame!.evaluate(`(async () => {
            const mc = document.modelContext;
            await mc.registerTool({ name: 'frame_tool_' + Math.random().toString(36).slice(2), description: 'The frame’s tool.', execute: () => 'ran' });
            return (await mc.getTools()).length;
          })()`),
        ),
      );
      const timer = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), SETTLE_MS));
      const result = await Promise.race([settled.then(() => 'ok' as const), timer]);
      return result;
    })();
    return await Promise.race([run, crash]);
  } catch (error) {
    if (crashed) return 'crashed';
    console.error(`attempt ${n}: ${(error as Error).message.split('\n')[0]}`);
    return crashed ? 'crashed' : 'other';
  } finally {
    await page.close().catch(() => undefined);
  }
}

/** Watches the tab as the panel does (lib/background: the router loads the bridge into every frame) until the top reported. */
async function watch(worker: Worker, page: Page): Promise<void> {
  const tabId = await tabIdOf(worker, page);
  for (;;) {
    const url = await worker.evaluate(async (t) => (await (globalThis as any).testToolRouter.getTools(t)).page?.url ?? '', tabId);
    if (url) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

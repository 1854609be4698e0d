/**
 * A frame's initial about:blank that got the bridge (it asked for it, as a compromised renderer may; a watched tab's
 * frames get it only where no document is about to replace the about:blank) keeps its window when its
 * first document of the same origin replaces it (docs/platform-notes.md): the page's world keeps that window's
 * globals, so the page bridge of the about:blank must not stand in for the next document's.
 */
import type { Worker } from '@playwright/test';
import type { StaticServer } from '../servers/static-server';
import { callTool, expectTools, getTools, textOf, watchTab } from './connector-helpers';
import { expect, test } from './fixtures';

test("a frame's first document serves its tools although its initial about:blank, whose window it kept, had the bridge", async ({
  context,
  server,
  serviceWorker,
  tabIdOf,
}) => {
  const page = await context.newPage();
  await page.goto(`${server.url}/plain.html`);
  const tabId = await tabIdOf(page);
  // The frame's src is held, so the bridge reaches its initial about:blank before its document loads. The page
  // never touches the about:blank (its stub would adopt it, and a bridge there stands down: issue 36).
  const held = heldToolPage(server);
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.id = 'kept';
    frame.src = src;
    (window as any).frameLoaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    document.body.append(frame);
  }, held.path);
  // Watched, the tab gets the whole bridge in the frames that lack it, but not in a pending about:blank (its document
  // gets its own scripts). The about:blank asks for it itself, as a compromised renderer may: the browser attests
  // the about:blank's document, and the router loads the bridge there.
  await getTools(serviceWorker, tabId);
  await watchTab(serviceWorker, tabId);
  await askBridgeForBlank(serviceWorker, tabId, server.url);
  await expect.poll(() => blankState(serviceWorker, tabId)).toEqual({ url: 'about:blank', bridge: true });
  held.release();
  await page.evaluate(() => (window as any).frameLoaded);
  expect(await page.evaluate(() => (document.getElementById('kept') as any).contentWindow.keptMark)).toBe(true);
  await expectTools(serviceWorker, tabId, ['kept_window']);
  expect(textOf(await callTool(serviceWorker, tabId, 'kept_window'))).toBe('from the first document');
});

/** The frame still on its initial about:blank asks the router for its bridge (frame/load), as the browser would attest it. */
async function askBridgeForBlank(sw: Worker, tabId: number, origin: string): Promise<void> {
  await sw.evaluate(
    async ([t, o]) => {
      const frames = await chrome.scripting.executeScript({
        target: { tabId: t, allFrames: true },
        injectImmediately: true,
        func: () => location.href,
      });
      const blank = frames.find((f) => f.result === 'about:blank');
      if (!blank) throw new Error('no frame on about:blank');
      (globalThis as any).testToolRouter.handleFrameMessage(
        { type: 'frame/load', native: false },
        { tabId: t, frameId: blank.frameId, documentId: blank.documentId, origin: o, url: 'about:blank' },
      );
    },
    [tabId, origin] as const,
  );
}

/** The page world of the frame still on its initial about:blank, read without the page touching it; marks its window. */
async function blankState(sw: Worker, tabId: number): Promise<unknown> {
  return sw.evaluate(async (t) => {
    const results = await chrome.scripting.executeScript({
      target: { tabId: t, allFrames: true },
      world: 'MAIN',
      injectImmediately: true,
      func: () => {
        if (location.href !== 'about:blank') return null;
        (window as any).keptMark = true;
        return { url: location.href, bridge: Object.hasOwn(window, Symbol.for('webmcp-agent.page-bridge')) };
      },
    });
    return results.map((r) => r.result).find((r) => r) ?? null;
  }, tabId);
}

/** A same-origin page, registering one tool, whose response waits until `release`. */
function heldToolPage(server: StaticServer): { path: string; release: () => void } {
  const path = `/held-tool-${Math.random().toString(36).slice(2)}.html`;
  const waiting: (() => void)[] = [];
  let released = false;
  server.route((req, res) => {
    if (!req.url?.startsWith(path)) return false;
    const send = () => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>first document</title><script>
        document.modelContext.registerTool({ name: 'kept_window', description: 'Says which document ran it.', execute: () => 'from the first document' });
      </script>`);
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

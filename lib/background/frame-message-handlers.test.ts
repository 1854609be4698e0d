/**
 * The router's handlers of what content scripts say, with the router's real parts around them (an in-memory store
 * stands in for session storage, which cannot run in Node). Every sender here is what the browser would attest.
 */
import { describe, expect, it } from 'vitest';
import type { FrameChannel } from '../messaging/router-messages';
import { handleMessage } from '../messaging/channel';
import { createMemoryStorageArea } from '../testing/memory-storage-area';
import { report, tool, until } from '../testing/tool-router-fixtures';
import type { FrameSender } from './attest-frame-sender';
import { createExposureRelay, type ExposureRelay } from './create-exposure-relay';
import { createFrameDocuments } from './create-frame-documents';
import { createFrameLines } from './create-frame-lines';
import { createPageBudget } from './create-page-budget';
import { createTabRegistry } from './create-tab-registry';
import { createNavigationFollower } from './follow-navigation';
import { frameMessageHandlers } from './frame-message-handlers';

function parts(given: { exposure?: ExposureRelay; now?: () => number } = {}) {
  const ports = { store: createMemoryStorageArea(), sendToFrame: async () => undefined, setBadge: () => undefined };
  const registry = createTabRegistry(ports);
  const exposure =
    given.exposure ??
    createExposureRelay({
      store: ports.store,
      mayUseTools: (sender) => registry.mayUseTools(sender),
      allowedFrames: (tabId) => registry.allowedFrames(tabId),
      sendToFrame: async () => undefined,
    });
  const lines = createFrameLines(ports.sendToFrame);
  const handlers = frameMessageHandlers({
    bridgeLoads: { request: () => undefined },
    registry,
    budget: createPageBudget(),
    navigation: createNavigationFollower({ navigationTimeoutMs: 100, maxResultChars: 1_000 }),
    exposure,
    documents: createFrameDocuments(given.now),
    lines,
    loadsHeld: new Set(),
    maxReportBytes: 1024 * 1024,
    maxExposedBytes: 10_000,
  });
  const say = (message: { type: keyof FrameChannel; [field: string]: unknown }, sender: FrameSender) =>
    handleMessage(handlers, message, sender);
  return { registry, exposure, say };
}
const at = (frameId: number, documentId: string, origin = 'http://a.test'): FrameSender => ({
  tabId: 1,
  frameId,
  documentId,
  origin,
  url: `${origin}/`,
});

describe('frameMessageHandlers', () => {
  it('takes a frame’s report, and ignores a late one of the document it replaced', async () => {
    const { registry, say } = parts();
    say({ type: 'frame/ready', url: 'http://a.test/' }, at(0, 'A'));
    say({ type: 'frame/tools', report: report('http://a.test', [tool('first')]) }, at(0, 'A'));
    await until(async () => expect((await registry.snapshot(1)).tools.map((t) => t.name)).toEqual(['first']));
    say({ type: 'frame/ready', url: 'http://a.test/next' }, at(0, 'B'));
    say({ type: 'frame/tools', report: report('http://a.test', [tool('stale')]) }, at(0, 'A'));
    say({ type: 'frame/tools', report: report('http://a.test', [tool('second')]) }, at(0, 'B'));
    await until(async () => expect((await registry.snapshot(1)).tools.map((t) => t.name)).toEqual(['second']));
  });

  it('refuses exposed tools heavier than the limit whole, and tells the tab why', async () => {
    // (What the frame then exposes, to whom: create-tool-router.test.ts › "a frame's exposed tools over 1 MB…".)
    const { registry, say } = parts();
    say({ type: 'frame/ready', url: 'http://a.test/' }, at(0, 'A'));
    say({ type: 'frame/tools', report: report('http://a.test', []) }, at(0, 'A'));
    const exposed = (description: string) => [{ name: 'book', title: '', description, exposedTo: ['http://b.test'] }];
    say({ type: 'frame/exposed', tools: exposed('light'), path: [] }, at(0, 'A'));
    say({ type: 'frame/exposed', tools: exposed('x'.repeat(20_000)), path: [] }, at(0, 'A'));
    await until(async () => expect((await registry.snapshot(1)).limits?.map((l) => l.kind)).toEqual(['report-size']));
  });

  it('a document whose bridge was loaded before it asked for it hears of a tool exposed to it while its tools policy was decided', async () => {
    // A cross-origin frame's bridge comes with a delegation check of another frame (it loads every frame), and its
    // document announces itself before its own frame/load, sent when the page added a toolchange listener, arrives.
    // Its policy is not decided yet, so the widget's change reaches no one; once it is, the frame is told.
    const clock = { now: 50 };
    let decide = (_allowed: boolean) => {};
    const decided = new Promise<boolean>((resolve) => (decide = resolve));
    const sent: [number, string][] = [];
    const asked: number[] = [];
    const exposure = createExposureRelay({
      mayUseTools: (s) => {
        asked.push(s.frameId);
        return s.frameId === 2 ? decided : Promise.resolve(true);
      },
      allowedFrames: async () => [{ frameId: 1, origin: 'http://widget.test' }],
      sendToFrame: async (_tabId, frameId, message) => void sent.push([frameId, (message as { type: string }).type]),
      now: () => clock.now,
    });
    const { say } = parts({ exposure, now: () => clock.now });
    const ad = at(2, 'ad-doc', 'http://ads.test');
    say({ type: 'frame/ready', url: 'http://ads.test/', needsDelegation: true }, ad);
    // A frame of the top's origin and ancestry is allowed at once and told of changes as they come: its load asks
    // nothing of the relay (a policy question would send it through the delegation check).
    const own = at(4, 'own-doc');
    say({ type: 'frame/ready', url: 'http://a.test/', needsDelegation: false }, own);
    say({ type: 'frame/load', native: false }, own);
    clock.now = 100;
    say({ type: 'frame/load', native: false }, ad);
    clock.now = 120;
    say(
      { type: 'frame/exposed', tools: [{ name: 'book', title: '', description: 'Books', exposedTo: ['http://ads.test'] }], path: [0] },
      at(1, 'widget-doc', 'http://widget.test'),
    );
    // Kept (another ad frame, allowed, lists it) and told to no one.
    await until(async () => expect(await exposure.list(at(3, 'other-ad', 'http://ads.test'), ['http://widget.test'])).toHaveLength(1));
    expect(sent).toEqual([]);
    decide(true);
    await until(async () => expect(sent).toEqual([[2, 'bridge/exposed-changed']]));
    expect(asked).not.toContain(4);
  });
});

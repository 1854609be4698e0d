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
import { createExposureRelay } from './create-exposure-relay';
import { createFrameDocuments } from './create-frame-documents';
import { createFrameLines } from './create-frame-lines';
import { createPageBudget } from './create-page-budget';
import { createTabRegistry } from './create-tab-registry';
import { createNavigationFollower } from './follow-navigation';
import { frameMessageHandlers } from './frame-message-handlers';

function parts() {
  const ports = { store: createMemoryStorageArea(), sendToFrame: async () => undefined, setBadge: () => undefined };
  const registry = createTabRegistry(ports);
  const exposure = createExposureRelay({
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
    documents: createFrameDocuments(),
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
});

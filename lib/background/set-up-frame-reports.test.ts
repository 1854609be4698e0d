import { describe, expect, it } from 'vitest';
import type { FrameSender } from './attest-frame-sender';
import { createToolRouter } from './create-tool-router';
import { createRuntimeMessageBus } from '../testing/runtime-message-bus';
import { report, setup, tool, until } from '../testing/tool-router-fixtures';
import { setUpFrameReports } from './set-up-frame-reports';

const extension = { id: 'ext-id', origin: 'chrome-extension://ext-id/' };
const panel = { id: 'ext-id', url: 'chrome-extension://ext-id/sidepanel.html', origin: 'chrome-extension://ext-id' };
const frame = (tabId: number, frameId: number, url: string) => ({
  id: 'ext-id',
  tab: { id: tabId },
  frameId,
  documentId: `doc-${tabId}-${frameId}`,
  url,
  origin: new URL(url).origin,
});

function start() {
  const bus = createRuntimeMessageBus();
  const toolRouter = createToolRouter(setup().ports);
  const seen: FrameSender[] = [];
  setUpFrameReports({ onMessage: bus.onMessage, extension, toolRouter, documentPorts: { seen: (f) => void seen.push(f) } });
  return { bus, toolRouter, seen };
}

describe('setUpFrameReports', () => {
  it("takes a frame's tools with the origin the browser attests, not the one its report claims", async () => {
    const { bus, toolRouter } = start();
    const claim = { type: 'frame/tools', report: report('https://bank.test', [tool('pay')]) };
    // Answered with how long the frame should wait before its next report (an ordinary one: not at all).
    const sent = bus.send(claim, frame(1, 0, 'https://evil.test/'));
    expect(sent.kept).toBe(true);
    await expect(sent.answer).resolves.toEqual({ nextReportInMs: 0 });
    await until(async () => expect((await toolRouter.getTools(1)).tools).toHaveLength(1));
    expect((await toolRouter.getTools(1)).tools[0]).toMatchObject({ originalName: 'pay', origin: 'https://evil.test' });
  });

  it("gives a top document that runs the bridge its Port, as attested (not a child frame's, nor the stub's)", () => {
    const { bus, seen } = start();
    bus.send({ type: 'frame/ready' }, frame(1, 0, 'https://a.test/'));
    bus.send({ type: 'frame/load' }, frame(2, 0, 'https://a.test/'));
    expect(seen.map(({ tabId, frameId, documentId, origin }) => ({ tabId, frameId, documentId, origin }))).toEqual([
      { tabId: 1, frameId: 0, documentId: 'doc-1-0', origin: 'https://a.test' },
    ]);
  });

  it("answers a frame's question about itself", async () => {
    const { bus } = start();
    const asked = bus.send({ type: 'frame/may-use-tools' }, frame(1, 0, 'https://a.test/'));
    expect(asked.kept).toBe(true);
    await expect(asked.answer).resolves.toBe(true);
  });

  it("leaves the extension's own pages to the host's listener: a panel is no frame", async () => {
    const { bus, toolRouter, seen } = start();
    const sent = bus.send({ type: 'frame/tools', report: report('https://a.test', [tool('x')]) }, { ...panel, tab: { id: 1 }, frameId: 0 });
    expect(sent.kept).toBe(false);
    expect(seen).toEqual([]);
    expect((await toolRouter.getTools(1)).tools).toEqual([]);
  });
});

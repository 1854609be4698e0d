import { describe, expect, it } from 'vitest';
import type { BackgroundToFrameMessage } from '../messaging/router-messages';
import type { LineMessage } from '../messaging/create-request-line';
import { createFrameLines } from './create-frame-lines';

/** tabs.sendMessage cannot run in Node: each send is recorded and settled by the test, as the browser would. */
function frames() {
  const sends: {
    tabId: number;
    frameId: number;
    documentId?: string;
    message: LineMessage;
    resolve(v: unknown): void;
    reject(e: Error): void;
  }[] = [];
  const lines = createFrameLines(
    (tabId, frameId, message: BackgroundToFrameMessage, documentId) =>
      new Promise((resolve, reject) => {
        if (message.type !== 'bridge/line') throw new Error('only lines here');
        sends.push({ tabId, frameId, ...(documentId ? { documentId } : {}), message: message.message, resolve, reject });
      }),
  );
  return { lines, sends };
}
const request = { callId: 'c', name: 't', input: {}, timeoutMs: 1_000, maxResultChars: 100 };
const sender = (tabId: number, frameId: number, documentId?: string) => ({
  tabId,
  frameId,
  origin: 'http://a.test',
  url: 'http://a.test/',
  ...(documentId ? { documentId } : {}),
});

describe('createFrameLines', () => {
  it('asks a document on its line; the answer comes back through the send that asked it', async () => {
    const { lines, sends } = frames();
    const asked = lines.lineTo({ tabId: 1, frameId: 2, documentId: 'D' }).ask('bridge/call', request);
    expect(sends[0]).toMatchObject({ tabId: 1, frameId: 2, documentId: 'D', message: { line: 'ask', type: 'bridge/call', request } });
    const { id } = sends[0].message as { id: string };
    sends[0].resolve({ line: 'answer', id, answer: { kind: 'navigated' } });
    expect(await asked).toEqual({ kind: 'navigated' });
  });

  it('a document that answers nothing answered null; one the browser cannot reach closes its line', async () => {
    const { lines, sends } = frames();
    const silent = lines.lineTo({ tabId: 1, frameId: 0 }).ask('bridge/call', request);
    sends[0].resolve(undefined);
    expect(await silent).toBeNull();
    const gone = lines.lineTo({ tabId: 1, frameId: 0 }).ask('bridge/call', request);
    sends[1].reject(new Error('Receiving end does not exist.'));
    await expect(gone).rejects.toThrow('Receiving end does not exist.');
    // A fresh line serves the next call.
    void lines.lineTo({ tabId: 1, frameId: 0 }).ask('bridge/call', request);
    expect(sends).toHaveLength(3);
  });

  it('updates are heard only from the document the browser attests', async () => {
    const { lines, sends } = frames();
    const heard: unknown[] = [];
    void lines.lineTo({ tabId: 1, frameId: 0, documentId: 'D' }).ask('bridge/call', request, { onUpdate: (u) => heard.push(u) });
    const { id } = sends[0].message as { id: string };
    const update = { line: 'update', id, update: { state: 'navigating' } };
    lines.heard(sender(1, 3, 'D'), update);
    lines.heard(sender(1, 0, 'E'), update);
    lines.heard(sender(2, 0, 'D'), update);
    expect(heard).toEqual([]);
    lines.heard(sender(1, 0, 'D'), update);
    expect(heard).toEqual([{ state: 'navigating' }]);
  });

  it('a replaced frame, a top document gone and a closed tab each fail what was pending there, with one error', async () => {
    const { lines } = frames();
    const ask = (tabId: number, frameId: number, documentId?: string) =>
      lines.lineTo({ tabId, frameId, ...(documentId ? { documentId } : {}) }).ask('bridge/call', request);
    const sub = ask(1, 2, 'S');
    const top = ask(1, 0, 'T');
    const other = ask(2, 0, 'U');
    lines.frameReplaced(1, 2);
    await expect(sub).rejects.toThrow('its frame loaded another document');
    lines.topDocumentLeft(1, 'not-T');
    lines.topDocumentLeft(1, 'T');
    await expect(top).rejects.toThrow("the tab's page went away");
    lines.closeTab(2);
    await expect(other).rejects.toMatchObject({ name: 'LineClosedError', message: 'the tab closed' });
  });
});

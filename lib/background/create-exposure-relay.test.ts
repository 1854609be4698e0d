import { describe, expect, it } from 'vitest';
import type { ExposedTool } from '../messaging/router-messages';
import type { FrameSender } from './attest-frame-sender';
import { createExposureRelay, UNKNOWN_TOOL_MESSAGE } from './create-exposure-relay';

const SHOP = 'https://shop.test';
const WIDGET = 'https://widget.test';
const ADS = 'https://ads.test';

const sender = (tabId: number, frameId: number, origin: string, documentId?: string): FrameSender => ({
  tabId,
  frameId,
  origin,
  url: `${origin}/`,
  ...(documentId ? { documentId } : {}),
});

const exposed = (name: string, exposedTo: string[], extra: Partial<ExposedTool> = {}): ExposedTool => ({
  name,
  title: '',
  description: `${name} does things`,
  exposedTo,
  ...extra,
});

/** A tab: frame 0 is the shop, 1 a widget, 2 an ad; `denied` frames may not use tools. */
function setup(denied: number[] = [], clock: { now: number } = { now: 0 }) {
  const sent: { tabId: number; frameId: number; message: { type: string; [key: string]: unknown }; documentId?: string }[] = [];
  const origins: Record<number, string> = { 0: SHOP, 1: WIDGET, 2: ADS };
  const relay = createExposureRelay({
    mayUseTools: async (s) => !denied.includes(s.frameId),
    allowedFrames: async () =>
      Object.entries(origins)
        .map(([id, origin]) => ({ frameId: Number(id), origin }))
        .filter(({ frameId }) => !denied.includes(frameId)),
    sendToFrame: async (tabId, frameId, message, documentId) => {
      sent.push({ tabId, frameId, message: message as { type: string }, ...(documentId ? { documentId } : {}) });
      const m = message as { type: string; name?: string; input?: string; caller?: string };
      if (m.type === 'bridge/run-exposed') return { ok: true, value: `${m.name} ran for ${m.caller} with ${m.input}` };
      return undefined;
    },
    now: () => clock.now,
  });
  return { relay, sent };
}

describe('createExposureRelay', () => {
  it('tells a document that was told of the change already nothing more, nor one that asked after it, another origin or none', async () => {
    const clock = { now: 100 };
    const { relay, sent } = setup([], clock);
    // The ad asked for its bridge at 100; the widget exposes a tool to it at 150, and the ad, allowed, is told then.
    clock.now = 150;
    await relay.publish(sender(1, 1, WIDGET, 'doc-w'), [exposed('book', [ADS])], [0]);
    expect(sent.map((m) => m.frameId)).toEqual([2]);
    sent.length = 0;
    await relay.caughtUp(sender(1, 2, ADS, 'doc-a'), 100);
    await relay.caughtUp(sender(1, 2, ADS, 'doc-b'), 151);
    await relay.caughtUp(sender(1, 2, ADS, 'doc-c'), undefined);
    await relay.caughtUp(sender(1, 0, SHOP, 'doc-s'), 100);
    expect(sent).toEqual([]);
  });

  it('tells a document whose tools policy was decided after a change the change once, and not again when it heard it', async () => {
    const clock = { now: 100 };
    let decide = (_allowed: boolean) => {};
    const sent: unknown[] = [];
    const relay = createExposureRelay({
      mayUseTools: (s) => (s.frameId === 2 ? new Promise<boolean>((resolve) => (decide = resolve)) : Promise.resolve(true)),
      // The ad is not counted as allowed yet: the widget's change reaches no one.
      allowedFrames: async () => [{ frameId: 1, origin: WIDGET }],
      sendToFrame: async (_tabId, frameId, message) => void sent.push([frameId, (message as { type: string }).type]),
      now: () => clock.now,
    });
    const ready = relay.caughtUp(sender(1, 2, ADS, 'doc-a'), 90);
    clock.now = 120;
    await relay.publish(sender(1, 1, WIDGET, 'doc-w'), [exposed('book', [ADS])], [0]);
    expect(sent).toEqual([]);
    decide(true);
    await ready;
    expect(sent).toEqual([[2, 'bridge/exposed-changed']]);
  });

  it('tells a document that may not use tools nothing when it is ready', async () => {
    const clock = { now: 100 };
    const { relay, sent } = setup([2], clock);
    await relay.publish(sender(1, 1, WIDGET, 'doc-w'), [exposed('book', [ADS])], [0]);
    sent.length = 0;
    await relay.caughtUp(sender(1, 2, ADS, 'doc-a'), 50);
    expect(sent).toEqual([]);
  });

  it('lists a frame its tools exposed to its attested origin, of the origins it asks for, with the owner as attested', async () => {
    const { relay, sent } = setup();
    await relay.publish(sender(1, 1, WIDGET, 'doc-w'), [exposed('book', [`${SHOP}/any/path`]), exposed('secret', [ADS])], [0]);
    // The frames of the exposed origins hear of it; the owner, and others, do not.
    expect(sent.map((s) => `${s.frameId}:${s.message.type}`)).toEqual(['0:bridge/exposed-changed', '2:bridge/exposed-changed']);
    expect(await relay.list(sender(1, 0, SHOP), [WIDGET])).toEqual([
      { frameId: 1, path: [0], origin: WIDGET, name: 'book', title: '', description: 'book does things' },
    ]);
    // Only when asked for by the owner's origin.
    expect(await relay.list(sender(1, 0, SHOP), [ADS])).toEqual([]);
    expect(await relay.list(sender(1, 0, SHOP), [])).toEqual([]);
    expect(await relay.list(sender(1, 2, ADS), [WIDGET])).toEqual([expect.objectContaining({ name: 'secret' })]);
  });

  it('runs the tool in its own document for the caller, and says the caller is who the browser attests', async () => {
    const { relay, sent } = setup();
    await relay.publish(sender(1, 1, WIDGET, 'doc-w'), [exposed('book', [SHOP])], [0]);
    const answer = await relay.run(sender(1, 0, SHOP), { callId: 'c1', frameId: 1, origin: WIDGET, name: 'book', input: '{"n":1}' });
    expect(answer).toEqual({ ok: true, value: `book ran for ${SHOP} with {"n":1}` });
    expect(sent.at(-1)).toMatchObject({ tabId: 1, frameId: 1, documentId: 'doc-w', message: { type: 'bridge/run-exposed', caller: SHOP } });
  });

  it('refuses a frame that claims another frame or origin: it sees and runs only what is exposed to its own attested origin', async () => {
    const { relay, sent } = setup();
    await relay.publish(sender(1, 1, WIDGET), [exposed('pay', [SHOP])], [0]);
    sent.length = 0;
    const unknown = { ok: false, name: 'UnknownError', message: UNKNOWN_TOOL_MESSAGE };
    // The ad frame asks as if it were the shop (the message's claims are not read: only the sender counts).
    const claim = { callId: 'c', frameId: 1, origin: WIDGET, name: 'pay', input: '{}', tabId: 1, sender: { frameId: 0, origin: SHOP } };
    expect(await relay.list(sender(1, 2, ADS), [WIDGET])).toEqual([]);
    expect(await relay.run(sender(1, 2, ADS), claim)).toEqual(unknown);
    // A tool of another origin than the one asked for, of a frame that is not there, or of the caller itself.
    expect(await relay.run(sender(1, 0, SHOP), { ...claim, origin: ADS })).toEqual(unknown);
    expect(await relay.run(sender(1, 0, SHOP), { ...claim, frameId: 7 })).toEqual(unknown);
    expect(await relay.run(sender(1, 1, WIDGET), claim)).toEqual(unknown);
    expect(await relay.run(sender(1, 0, SHOP), { ...claim, name: 'other' })).toEqual(unknown);
    expect(sent).toEqual([]);
  });

  it('never crosses tabs: a tool of another tab is neither listed nor run', async () => {
    const { relay, sent } = setup();
    await relay.publish(sender(1, 1, WIDGET), [exposed('pay', [SHOP])], [0]);
    sent.length = 0;
    expect(await relay.list(sender(2, 0, SHOP), [WIDGET])).toEqual([]);
    expect(await relay.run(sender(2, 0, SHOP), { callId: 'c', frameId: 1, origin: WIDGET, name: 'pay', input: '{}' })).toEqual({
      ok: false,
      name: 'UnknownError',
      message: UNKNOWN_TOOL_MESSAGE,
    });
    expect(sent).toEqual([]);
  });

  it('a frame speaks only for its own tools: what it publishes replaces its own list, never another frame’s', async () => {
    const { relay } = setup();
    await relay.publish(sender(1, 1, WIDGET), [exposed('book', [SHOP])], [0]);
    // The ad frame publishes a tool of the same name, claiming to be the widget in its tools' data.
    await relay.publish(sender(1, 2, ADS), [{ ...exposed('book', [SHOP]), origin: WIDGET, frameId: 1 } as ExposedTool], [1]);
    expect((await relay.list(sender(1, 0, SHOP), [WIDGET, ADS])).map((e) => `${e.name}@${e.origin}#${e.frameId}`)).toEqual([
      'book@https://widget.test#1',
      'book@https://ads.test#2',
    ]);
    // Revoking: the widget's empty list takes its tool away, and the frames it was exposed to hear of it.
    await relay.publish(sender(1, 1, WIDGET), [], [0]);
    expect((await relay.list(sender(1, 0, SHOP), [WIDGET])).length).toBe(0);
  });

  it('a frame the tools policy does not allow neither exposes nor sees nor runs anything', async () => {
    const { relay } = setup([2]);
    await relay.publish(sender(1, 2, ADS), [exposed('track', [SHOP])], [1]);
    expect(await relay.list(sender(1, 0, SHOP), [ADS])).toEqual([]);
    await relay.publish(sender(1, 0, SHOP), [exposed('cart', [ADS])], []);
    expect(await relay.list(sender(1, 2, ADS), [SHOP])).toEqual([]);
    expect((await relay.run(sender(1, 2, ADS), { callId: 'c', frameId: 0, origin: SHOP, name: 'cart', input: '{}' })).ok).toBe(false);
  });

  it('takes only well-formed claims, bounded, and only the hints it knows', async () => {
    const { relay } = setup();
    await relay.publish(sender(1, 1, WIDGET), 'not a list', [0]);
    await relay.publish(sender(1, 1, WIDGET), [exposed('book', [SHOP])], 'not a path');
    await relay.publish(sender(1, 1, WIDGET), [exposed('book', [SHOP]), exposed('book', [SHOP])], [0]);
    expect(await relay.list(sender(1, 0, SHOP), [WIDGET])).toEqual([]);
    await relay.publish(
      sender(1, 1, WIDGET),
      [exposed('book', [SHOP, 'not a url', 'data:,x'], { annotations: { readOnlyHint: true, evil: true } as Record<string, boolean> })],
      [0],
    );
    expect(await relay.list(sender(1, 0, SHOP), [WIDGET])).toEqual([
      expect.objectContaining({
        annotations: { consequentialHint: false, debugging: false, readOnlyHint: true, untrustedContentHint: false },
      }),
    ]);
  });

  it('keeps what frames expose across a service-worker restart, in session storage', async () => {
    const data: Record<string, unknown> = {};
    const store = {
      get: async (keys: readonly string[]) => Object.fromEntries(keys.filter((k) => k in data).map((k) => [k, data[k]])),
      set: async (items: Record<string, unknown>) => void Object.assign(data, structuredClone(items)),
      remove: async (keys: readonly string[]) => {
        for (const k of keys) delete data[k];
      },
    };
    const make = () =>
      createExposureRelay({ store, mayUseTools: async () => true, allowedFrames: async () => [], sendToFrame: async () => undefined });
    await make().publish(sender(1, 1, WIDGET), [exposed('book', [SHOP])], [0]);
    await new Promise((r) => setTimeout(r, 0));
    const restarted = make();
    expect((await restarted.list(sender(1, 0, SHOP), [WIDGET])).map((e) => e.name)).toEqual(['book']);
    restarted.forgetTab(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(await make().list(sender(1, 0, SHOP), [WIDGET])).toEqual([]);
  });

  it('stops a running call only for its caller, and forgets a frame whose document went away', async () => {
    const { relay, sent } = setup();
    await relay.publish(sender(1, 1, WIDGET), [exposed('book', [SHOP])], [0]);
    let finish: (value: unknown) => void = () => {};
    const slow = createExposureRelay({
      mayUseTools: async () => true,
      allowedFrames: async () => [],
      sendToFrame: (_t, _f, message) => {
        sent.push({ tabId: 1, frameId: 1, message: message as { type: string } });
        return (message as { type: string }).type === 'bridge/run-exposed'
          ? new Promise((resolve) => (finish = resolve))
          : Promise.resolve();
      },
    });
    await slow.publish(sender(1, 1, WIDGET), [exposed('book', [SHOP])], [0]);
    const running = slow.run(sender(1, 0, SHOP), { callId: 'c9', frameId: 1, origin: WIDGET, name: 'book', input: '{}' });
    await new Promise((r) => setTimeout(r, 0));
    slow.cancel(sender(1, 2, ADS), 'c9');
    expect(sent.filter((s) => s.message.type === 'bridge/cancel-exposed')).toEqual([]);
    slow.cancel(sender(1, 0, SHOP), 'c9');
    expect(sent.filter((s) => s.message.type === 'bridge/cancel-exposed')).toHaveLength(1);
    finish({ ok: false, name: 'AbortError', message: 'stopped' });
    expect(await running).toEqual({ ok: false, name: 'AbortError', message: 'stopped' });
    relay.forgetFrame(1, 1);
    expect(await relay.list(sender(1, 0, SHOP), [WIDGET])).toEqual([]);
  });
});

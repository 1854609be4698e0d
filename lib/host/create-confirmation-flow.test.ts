import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../agent/types';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import type { ConfirmationPolicy, ToolGrant } from '../storage/settings';
import { createConfirmationFlow, DECLINED_CALL_ERROR, STOPPED_BEFORE_CONFIRMATION_ERROR } from './create-confirmation-flow';

const SHOP = 'https://shop.example';
const AD = 'https://ads.example';

const tool = (annotations?: TabToolEntry['annotations'], origin = SHOP): TabToolEntry => ({
  name: 'pay',
  originalName: 'pay',
  description: 'Pays.',
  inputSchema: { type: 'object' },
  origin,
  frameId: origin === SHOP ? 0 : 3,
  ...(annotations ? { annotations } : {}),
});
const call: ToolCall = { id: 'model-call-1', name: 'pay', input: { amount: 5 } };

/** The flow over an in-memory settings port; records what the panel would be shown. */
function setup(confirmation: ConfirmationPolicy = 'non-read-only', grants: ToolGrant[] = []) {
  const asked: { callId: string; prompt: string }[] = [];
  let changes = 0;
  let ids = 0;
  const flow = createConfirmationFlow({
    settings: {
      read: async () => ({ mode: 'local', confirmation, grants }),
      grantTool: async (origin, name) => void grants.push({ origin, tool: name, grantedAt: 1 }),
    },
    generateId: () => `host-id-${++ids}`,
    onAsking: (callId, prompt) => asked.push({ callId, prompt }),
    onChange: () => changes++,
  });
  const check = (t: TabToolEntry, signal = new AbortController().signal, top = `${SHOP}/cart`) =>
    flow.check(call, t, { origin: t.origin, originalName: t.originalName }, { top, signal, awaiting: () => {} });
  const until = async () => {
    while (flow.open().length === 0) await new Promise((r) => setTimeout(r, 1));
    return flow.open()[0];
  };
  return { flow, asked, grants, check, until, changes: () => changes };
}

describe('createConfirmationFlow', () => {
  it('lets a read-only tool run without asking; asks for one the site does not mark', async () => {
    const { check, asked } = setup();
    expect(await check(tool({ readOnlyHint: true }))).toBe('run');
    expect(asked).toEqual([]);
    const { check: check2, until, flow } = setup();
    const pending = check2(tool());
    const open = await until();
    expect(open).toMatchObject({ callId: 'model-call-1', toolName: 'pay', origin: SHOP, allowAlways: true });
    expect(open.prompt).toBe('Allow pay on shop.example? The site does not mark it as read-only.');
    flow.confirm(open.id, 'allow-once');
    expect(await pending).toBe('run');
    expect(flow.open()).toEqual([]);
  });

  it('Deny tells the model, and Stop ends the question as stopped', async () => {
    const denied = setup();
    const pending = denied.check(tool());
    denied.flow.confirm((await denied.until()).id, 'deny');
    expect(await pending).toEqual({ content: [{ type: 'text', text: DECLINED_CALL_ERROR('pay') }], isError: true });

    const stopped = setup();
    const controller = new AbortController();
    const waiting = stopped.check(tool(), controller.signal);
    await stopped.until();
    controller.abort();
    expect(await waiting).toEqual({ content: [{ type: 'text', text: STOPPED_BEFORE_CONFIRMATION_ERROR }], isError: true });
  });

  it("is answered by the host's own id only: the model's call id answers nothing", async () => {
    const { check, until, flow } = setup();
    const pending = check(tool());
    const open = await until();
    expect(open.id).toBe('host-id-1');
    flow.confirm('model-call-1', 'allow-once');
    expect(flow.open()).toHaveLength(1);
    flow.confirm(open.id, 'allow-once');
    expect(await pending).toBe('run');
  });

  it('"Always on this site" grants the tool for its own frame\'s origin, and the grant then skips the question', async () => {
    const { check, until, flow, grants } = setup();
    const inFrame = tool(undefined, AD);
    const pending = check(inFrame);
    const open = await until();
    expect(open.prompt).toBe('Allow pay on ads.example (a frame inside shop.example)? The site does not mark it as read-only.');
    flow.confirm(open.id, 'allow-always');
    expect(await pending).toBe('run');
    expect(grants).toEqual([{ origin: AD, tool: 'pay', grantedAt: 1 }]);
    expect(await check(inFrame)).toBe('run');
    // The shop's own pay is another tool: the ad frame's grant does not cover it.
    void check(tool());
    expect((await until()).origin).toBe(SHOP);
  });

  it('a consequential tool asks every time and offers no "Always"; an answer that says Always counts as once', async () => {
    const { check, until, flow, grants } = setup('never', [{ origin: SHOP, tool: 'pay', grantedAt: 1 }]);
    const pending = check(tool({ consequentialHint: true }));
    const open = await until();
    expect(open.allowAlways).toBe(false);
    expect(open.prompt).toBe('Allow pay on shop.example? The site marks it as consequential: it asks every time.');
    flow.confirm(open.id, 'allow-always');
    expect(await pending).toBe('run');
    expect(grants).toEqual([{ origin: SHOP, tool: 'pay', grantedAt: 1 }]);
  });

  it('a sandboxed frame (opaque origin) is asked about without a site, and gets no "Always"', async () => {
    const { check, until } = setup();
    void check(tool(undefined, 'null'));
    const open = await until();
    expect(open.allowAlways).toBe(false);
    expect(open.prompt).toBe('Allow pay in a sandboxed frame inside shop.example? The site does not mark it as read-only.');
  });

  it('stopAll ends every open question as stopped', async () => {
    const { check, until, flow } = setup();
    const pending = check(tool());
    await until();
    flow.stopAll();
    expect(await pending).toEqual({ content: [{ type: 'text', text: STOPPED_BEFORE_CONFIRMATION_ERROR }], isError: true });
  });
});

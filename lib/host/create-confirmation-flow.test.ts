import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../agent/types';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { type GrantCaller, IN_BROWSER_AGENT } from '../storage/grant-caller';
import type { ConfirmationPolicy, ToolGrant } from '../storage/settings';
import { createConfirmationFlow, DECLINED_CALL_ERROR, STOPPED_BEFORE_CONFIRMATION_ERROR } from './create-confirmation-flow';

const SHOP = 'https://shop.example';
const CLAUDE: GrantCaller = { kind: 'desktop', name: 'Claude Code' };
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
      grantTool: async (origin, name, caller) => void grants.push({ origin, tool: name, caller, grantedAt: 1 }),
    },
    generateId: () => `host-id-${++ids}`,
    onAsking: (callId, prompt) => asked.push({ callId, prompt }),
    onChange: () => changes++,
  });
  const check = (
    t: TabToolEntry,
    signal = new AbortController().signal,
    top = `${SHOP}/cart`,
    who: { caller: GrantCaller | undefined; requester?: string } = { caller: IN_BROWSER_AGENT },
  ) => flow.check(call, t, { origin: t.origin, originalName: t.originalName }, { top, signal, awaiting: () => {}, ...who });
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
    expect(grants).toEqual([{ origin: AD, tool: 'pay', caller: IN_BROWSER_AGENT, grantedAt: 1 }]);
    expect(await check(inFrame)).toBe('run');
    // The shop's own pay is another tool: the ad frame's grant does not cover it.
    void check(tool());
    expect((await until()).origin).toBe(SHOP);
  });

  it('a consequential tool asks every time and offers no "Always"; an answer that says Always counts as once', async () => {
    const { check, until, flow, grants } = setup('never', [{ origin: SHOP, tool: 'pay', caller: IN_BROWSER_AGENT, grantedAt: 1 }]);
    const pending = check(tool({ consequentialHint: true }));
    const open = await until();
    expect(open.allowAlways).toBe(false);
    expect(open.prompt).toBe('Allow pay on shop.example? The site marks it as consequential: it asks every time.');
    flow.confirm(open.id, 'allow-always');
    expect(await pending).toBe('run');
    expect(grants).toEqual([{ origin: SHOP, tool: 'pay', caller: IN_BROWSER_AGENT, grantedAt: 1 }]);
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

  it('a question closes when its call ends: the panel hears at once, and an Allow afterwards runs nothing', async () => {
    const { check, until, flow, changes } = setup();
    const controller = new AbortController();
    const waiting = check(tool(), controller.signal, `${SHOP}/cart`, { caller: CLAUDE, requester: 'Claude Code' });
    const open = await until();
    const before = changes();
    // The desktop agent gave up (MCP cancel): the call's signal aborts.
    controller.abort();
    expect(await waiting).toEqual({ content: [{ type: 'text', text: STOPPED_BEFORE_CONFIRMATION_ERROR }], isError: true });
    expect(flow.open()).toEqual([]);
    expect(changes()).toBeGreaterThan(before);
    flow.confirm(open.id, 'allow-once');
    expect(flow.open()).toEqual([]);
  });

  it('grants are per caller: a desktop agent’s "Always" never covers the in-browser agent or another desktop agent, nor the other way round', async () => {
    const { check, until, flow, grants } = setup();
    const asClaude = { caller: CLAUDE, requester: 'Claude Code' };
    const pending = check(tool(), undefined, undefined, asClaude);
    const open = await until();
    expect(open.allowAlways).toBe(true);
    flow.confirm(open.id, 'allow-always');
    expect(await pending).toBe('run');
    expect(grants).toEqual([{ origin: SHOP, tool: 'pay', caller: CLAUDE, grantedAt: 1 }]);
    // Claude Code's next call runs unasked; the in-browser agent and another desktop agent are asked.
    expect(await check(tool(), undefined, undefined, asClaude)).toBe('run');
    const agent = check(tool());
    flow.confirm((await until()).id, 'allow-always');
    expect(await agent).toBe('run');
    expect(grants.map((g) => g.caller)).toEqual([CLAUDE, IN_BROWSER_AGENT]);
    const cursor = check(tool(), undefined, undefined, { caller: { kind: 'desktop', name: 'Cursor' }, requester: 'Cursor' });
    const asked = await until();
    expect(asked.prompt).toBe('Cursor (desktop agent) asks: Allow pay on shop.example? The site does not mark it as read-only.');
    flow.confirm(asked.id, 'deny');
    await cursor;
  });

  it('an unknown caller gets no grant and is offered no "Always"', async () => {
    const { check, until, flow, grants } = setup('non-read-only', [{ origin: SHOP, tool: 'pay', caller: IN_BROWSER_AGENT, grantedAt: 1 }]);
    const pending = check(tool(), undefined, undefined, { caller: undefined, requester: 'MCP client' });
    const open = await until();
    expect(open.allowAlways).toBe(false);
    flow.confirm(open.id, 'allow-always');
    expect(await pending).toBe('run');
    expect(grants).toHaveLength(1);
  });

  it('shows what the schema marks secret masked, in every caller’s question, and reveals it only for that open question', async () => {
    const { flow, until, check } = setup();
    const signIn: TabToolEntry = {
      ...tool(),
      name: 'sign_in',
      originalName: 'sign_in',
      inputSchema: {
        type: 'object',
        properties: { user: { type: 'string' }, password: { type: 'string', format: 'password' }, note: { type: 'string' } },
      },
    };
    const secretCall: ToolCall = {
      id: 'c-secret',
      name: 'sign_in',
      input: { user: 'ada', password: 'hunter2-horse', note: 'pw hunter2-horse' },
    };
    const ask = (who: { caller: GrantCaller | undefined; requester?: string; force?: { reason: string } }) =>
      flow.check(
        secretCall,
        signIn,
        { origin: SHOP, originalName: 'sign_in' },
        { top: SHOP, signal: new AbortController().signal, awaiting: () => {}, ...who },
      );
    // A desktop agent's question, and the in-browser agent's question that shows what would go (cross-site).
    const asked = [
      ask({ caller: CLAUDE, requester: 'Claude Code' }),
      ask({ caller: IN_BROWSER_AGENT, force: { reason: 'It holds bank.example.' } }),
    ];
    await until();
    while (flow.open().length < 2) await new Promise((r) => setTimeout(r, 1));
    for (const question of flow.open()) {
      expect(question.masked).toBe(true);
      expect(JSON.parse(question.input ?? '')).toEqual({ user: 'ada', password: '[redacted]', note: 'pw [redacted]' });
      expect(JSON.stringify(question)).not.toContain('hunter2-horse');
      expect(JSON.parse(flow.reveal(question.id) ?? '')).toEqual(secretCall.input);
    }
    const [first, second] = flow.open();
    expect(flow.reveal('c-secret')).toBeUndefined();
    flow.confirm(first.id, 'deny');
    // Closed: nothing to reveal any more.
    expect(flow.reveal(first.id)).toBeUndefined();
    flow.confirm(second.id, 'deny');
    await Promise.all(asked);
    // A question whose arguments hold no secret has nothing to reveal.
    const plain = check(tool(), undefined, undefined, { caller: CLAUDE, requester: 'Claude Code' });
    const open = await until();
    expect(open).not.toHaveProperty('masked');
    expect(flow.reveal(open.id)).toBeUndefined();
    flow.confirm(open.id, 'deny');
    await plain;
  });

  describe('"Allow for this task"', () => {
    const BANK = 'https://bank.example';
    const flows = [{ from: BANK, to: SHOP }];
    const taskSetup = () => {
      const allowed: unknown[] = [];
      let ids = 0;
      const flow = createConfirmationFlow({
        settings: { read: async () => ({ mode: 'local', confirmation: 'non-read-only', grants: [] }), grantTool: async () => {} },
        generateId: () => `host-id-${++ids}`,
        onAsking: () => {},
        onChange: () => {},
        allowFlows: (f) => allowed.push(f),
      });
      const until = async () => {
        while (flow.open().length === 0) await new Promise((r) => setTimeout(r, 1));
        return flow.open()[0];
      };
      const ask = (force: { reason: string; flows?: typeof flows }, requester?: string) =>
        flow.check(
          call,
          tool({ readOnlyHint: true }),
          { origin: SHOP, originalName: 'pay' },
          {
            top: SHOP,
            signal: new AbortController().signal,
            awaiting: () => {},
            caller: IN_BROWSER_AGENT,
            force,
            ...(requester ? { requester } : {}),
          },
        );
      return { flow, allowed, until, ask };
    };

    it('is offered for the crossings the run’s rules named, with no "Always", and remembers them in the conversation when chosen', async () => {
      const { flow, allowed, until, ask } = taskSetup();
      const pending = ask({ reason: 'Crosses.', flows });
      const open = await until();
      expect(open).toMatchObject({ allowAlways: false, allowTask: flows });
      flow.confirm(open.id, 'allow-task');
      expect(await pending).toBe('run');
      expect(allowed).toEqual([flows]);
    });

    it('is not offered to a desktop agent, nor for a question that names no crossing; saying it anyway counts as once', async () => {
      const { flow, allowed, until, ask } = taskSetup();
      const byClient = ask({ reason: 'Crosses.', flows }, 'Claude Code');
      const first = await until();
      expect(first.allowTask).toBeUndefined();
      flow.confirm(first.id, 'allow-task');
      expect(await byClient).toBe('run');
      const plain = ask({ reason: 'Outcome unknown.' });
      const second = await until();
      expect(second.allowTask).toBeUndefined();
      flow.confirm(second.id, 'allow-task');
      expect(await plain).toBe('run');
      expect(allowed).toEqual([]);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { OUTCOME_UNKNOWN_NOTE } from '../agent/tool-error-codes';
import type { ToolDescriptor, ToolOutput, WebAgent } from '../agent/types';
import { createRunGuard } from './create-run-guard';
import { createTaskFlows } from './create-task-flows';

const A = 'https://a.example';
const B = 'https://b.example';
const tool = (name: string, annotations?: ToolDescriptor['annotations']): ToolDescriptor => ({
  name,
  description: name,
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
});
const call = (name: string) => ({ id: 'c1', name, input: {} });
const text = (output: ToolOutput | undefined) => (output?.content[0]?.type === 'text' ? output.content[0].text : '');
const failed = (text: string): ToolOutput => ({ content: [{ type: 'text', text }], isError: true });

describe('createRunGuard', () => {
  it('stops the run once, when the tab shows another site, and refuses every call after', () => {
    let stops = 0;
    const guard = createRunGuard({ site: A, agent: undefined, stop: () => stops++ });
    guard.notice(A);
    expect(guard.refuse(call('search'), [], [tool('search')])).toBeUndefined();
    guard.notice(B);
    guard.notice(`${B}/other`);
    expect(stops).toBe(1);
    expect(guard.crossed()).toEqual({ from: A, to: B });
    expect(text(guard.refuse(call('search'), [], [tool('search')]))).toBe(
      'Error [tool_changed]: the tab is on b.example now, not a.example where this run started. Nothing was run.',
    );
  });

  it('fails closed while the tab’s site is not known: no tools for the model, every call refused, until it shows the run’s site again', () => {
    let stops = 0;
    const guard = createRunGuard({ site: A, agent: undefined, stop: () => stops++ });
    guard.notice(A);
    expect(guard.onSite()).toBe(true);
    // The page is loading, or the router has not heard from its new top document yet.
    guard.notice(undefined);
    expect(guard.onSite()).toBe(false);
    expect(guard.crossed()).toBeUndefined();
    expect(stops).toBe(0);
    const refused =
      "Error [tool_changed]: the tab's site is not known right now (its page may still be loading), and this run belongs to a.example. Nothing was run.";
    expect(text(guard.refuse(call('search'), [], [tool('search')]))).toBe(refused);
    expect(text(guard.leftSite())).toBe(refused);
    // Known again, and the run's own site: the run goes on.
    guard.notice(A);
    expect(guard.onSite()).toBe(true);
    expect(guard.refuse(call('search'), [], [tool('search')])).toBeUndefined();
    // Unknown, then another site: the run ends there.
    guard.notice(undefined);
    guard.notice(B);
    expect(stops).toBe(1);
    expect(guard.crossed()).toEqual({ from: A, to: B });
    expect(guard.onSite()).toBe(false);
  });

  it('refuses a name not offered to the calling agent, and names what was offered', () => {
    const reviews: WebAgent = { id: 'reviews', name: 'Reviews', tools: ['read_reviews'] };
    const agent: WebAgent = { id: 'shop', tools: ['search'], subAgents: [reviews] };
    const guard = createRunGuard({ site: A, agent, stop: () => {} });
    const page = [tool('search'), tool('read_reviews'), tool('check_out')];
    expect(guard.refuse(call('search'), [], page)).toBeUndefined();
    expect(text(guard.refuse(call('check_out'), [], page))).toBe(
      'Error [unknown_tool]: no tool named "check_out" is offered to you. Available tools: search, delegate_to_reviews.',
    );
    expect(guard.refuse(call('read_reviews'), ['reviews'], page)).toBeUndefined();
    expect(text(guard.refuse(call('search'), ['reviews'], page))).toBe(
      'Error [unknown_tool]: no tool named "search" is offered to you. Available tools: read_reviews.',
    );
    expect(guard.refuse(call('delegate_to_reviews'), [], page)?.isError).toBe(true);
  });

  it('refuses a debugging tool to every agent, even one whose profile names it, and leaves it out of what was offered', () => {
    const inspector: WebAgent = { id: 'inspector', name: 'Inspector', tools: ['dump_state'] };
    const agent: WebAgent = { id: 'shop', subAgents: [inspector] };
    const guard = createRunGuard({ site: A, agent, stop: () => {} });
    const page = [tool('search'), tool('dump_state', { debugging: true })];
    expect(text(guard.refuse(call('dump_state'), [], page))).toBe(
      'Error [unknown_tool]: no tool named "dump_state" is offered to you. Available tools: search, delegate_to_inspector.',
    );
    expect(text(guard.refuse(call('dump_state'), ['inspector'], page))).toBe(
      'Error [unknown_tool]: no tool named "dump_state" is offered to you. Available tools: none.',
    );
    // debugging: false is an ordinary tool.
    expect(guard.refuse(call('search'), [], [tool('search', { debugging: false })])).toBeUndefined();
  });

  it('asks whatever the policy says when the conversation holds another site’s data', () => {
    const guard = createRunGuard({ site: B, agent: undefined, stop: () => {} });
    expect(guard.mustAsk({ origin: B, originalName: 'lookup' }, [B])).toBeUndefined();
    expect(guard.mustAsk({ origin: B, originalName: 'lookup' }, [A, B])?.reason).toBe(
      'This conversation holds what was read on a.example; the arguments below would go to b.example.',
    );
  });

  it('judges a call by the origin of the frame that owns the tool, not the tab’s top site', () => {
    // The run is on A; B's delegated frame inside A offers a read-only lookup.
    const guard = createRunGuard({ site: A, agent: undefined, stop: () => {} });
    const frameLookup = { origin: B, originalName: 'lookup' };
    // What was read on A must not reach B's frame unseen…
    expect(guard.mustAsk(frameLookup, [A])?.reason).toBe(
      'This conversation holds what was read on a.example; the arguments below would go to b.example.',
    );
    // …nor what B's frame returned reach A's own tools.
    expect(guard.mustAsk({ origin: A, originalName: 'transfer' }, [A, B])?.reason).toBe(
      'This conversation holds what was read on b.example; the arguments below would go to a.example.',
    );
    // Only B read so far: B's own tool is judged by the policy; a tool naming no frame is the top site's.
    expect(guard.mustAsk(frameLookup, [B])).toBeUndefined();
    expect(guard.mustAsk({ originalName: 'search' }, [A])).toBeUndefined();
    expect(guard.mustAsk({ originalName: 'search' }, [B])?.reason).toMatch(
      /read on b\.example; the arguments below would go to a\.example/,
    );
    // A sandboxed frame's data (an opaque origin) is another party's; so is any origin when none is known.
    expect(guard.mustAsk({ origin: A, originalName: 'transfer' }, [A, 'null'])?.reason).toBe(
      'This conversation holds what was read on a sandboxed frame; the arguments below would go to a.example.',
    );
    const unknown = createRunGuard({ site: undefined, agent: undefined, stop: () => {} });
    expect(unknown.mustAsk({ originalName: 'search' }, [A])?.reason).toMatch(/would go to this site/);
  });

  it('marks a call that is not read-only and ended without an answer as outcome unknown, and asks before it runs again', () => {
    const guard = createRunGuard({ site: A, agent: undefined, stop: () => {} });
    const pay = { origin: A, originalName: 'pay' };
    for (const code of ['timeout', 'frame_gone', 'navigated', 'tool_threw']) {
      const fresh = createRunGuard({ site: A, agent: undefined, stop: () => {} });
      const settled = fresh.settle(tool('pay'), pay, failed(`Error [${code}]: it went wrong.`));
      expect(text(settled)).toBe(`Error [${code}]: it went wrong. ${OUTCOME_UNKNOWN_NOTE}`);
      expect(fresh.mustAsk(pay, [A])?.reason).toMatch(/outcome unknown/);
    }
    // Other failures, read-only tools and results are what they are.
    expect(text(guard.settle(tool('pay'), pay, failed('Error [invalid_input]: amount: required')))).not.toContain(OUTCOME_UNKNOWN_NOTE);
    expect(text(guard.settle(tool('pay', { readOnlyHint: true }), pay, failed('Error [timeout]: slow.')))).not.toContain(
      OUTCOME_UNKNOWN_NOTE,
    );
    expect(guard.mustAsk(pay, [A])).toBeUndefined();
    // Another tool's unknown outcome does not make this one ask.
    guard.settle(tool('ship'), { origin: A, originalName: 'ship' }, failed('Error [timeout]: slow.'));
    expect(guard.mustAsk(pay, [A])).toBeUndefined();
  });

  describe('in a task across tabs', () => {
    const C = 'https://c.example';
    const taskGuard = (offer = true) => {
      const flows = createTaskFlows();
      const guard = createRunGuard({ site: A, agent: undefined, stop: () => {}, task: { flows, offer: () => offer } });
      return { flows, guard };
    };
    const lookupOn = (origin: string) => ({ origin, originalName: 'lookup' });

    it('asks when what was read on tab A’s site would go to tab B’s read-only tool, offering "Allow for this task" for that one flow', () => {
      const { guard } = taskGuard();
      expect(guard.mustAsk(lookupOn(B), [A])).toEqual({
        reason: 'This conversation holds what was read on a.example; the arguments below would go to b.example.',
        flows: [{ from: A, to: B }],
      });
    });

    it('after "Allow for this task" for A→B does not ask again for A→B, but still asks for B→A and A→C', () => {
      const { flows, guard } = taskGuard();
      flows.allow([{ from: A, to: B }]);
      expect(guard.mustAsk(lookupOn(B), [A])).toBeUndefined();
      expect(guard.mustAsk(lookupOn(B), [A, B])).toBeUndefined();
      expect(guard.mustAsk(lookupOn(A), [A, B])).toMatchObject({ flows: [{ from: B, to: A }] });
      expect(guard.mustAsk(lookupOn(C), [A])).toMatchObject({ flows: [{ from: A, to: C }] });
      // A third site's data is not covered by A→B: the question names only the crossing not allowed yet.
      expect(guard.mustAsk(lookupOn(B), [A, C])).toMatchObject({ flows: [{ from: C, to: B }] });
    });

    it('offers nothing more than a question while the task has one tab, or for an outcome unknown, or a sandboxed frame', async () => {
      expect(taskGuard(false).guard.mustAsk(lookupOn(B), [A])).toEqual({
        reason: 'This conversation holds what was read on a.example; the arguments below would go to b.example.',
      });
      expect(taskGuard().guard.mustAsk(lookupOn('null'), [A])?.flows).toBeUndefined();
      const { guard } = taskGuard();
      const pay = { origin: B, originalName: 'pay' };
      guard.settle(tool('pay'), pay, failed('Error [timeout]: no answer.'));
      const asked = guard.mustAsk(pay, [A]);
      expect(asked?.reason).toMatch(/outcome unknown/);
      expect(asked?.flows).toBeUndefined();
    });
  });
});

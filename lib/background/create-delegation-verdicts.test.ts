import { describe, expect, it, vi } from 'vitest';
import type { BackgroundToFrameMessage } from '../messaging/router-messages';
import { createDelegationVerdicts } from './create-delegation-verdicts';
import { readTabState, recordReport } from './tab-state';

const TOP = 'https://shop.example';
const ADS = 'https://ads.example';
const report = (origin: string, names: string[]) => ({
  url: `${origin}/`,
  origin,
  page: { url: `${origin}/`, title: 'Page' },
  tools: names.map((name) => ({ name, description: name, inputSchema: { type: 'object' as const } })),
});
const ads = { tabId: 1, frameId: 3, origin: ADS, url: `${ADS}/` };

/**
 * One tab: the top of the shop and frame 3 of another origin, both reported. `allow`: the attribute of frame 3's
 * iframe when the top offers tokens (undefined: the top offers none, as a busy or silent parent).
 */
function setup(allow: string | undefined, waitMs = 1_000, handBack: 'at once' | 'later' = 'at once') {
  const state = readTabState(undefined);
  recordReport(state, 0, report(TOP, ['search']), 1);
  recordReport(state, 3, report(ADS, ['pay']), 2);
  const saved = vi.fn();
  const asked: number[] = [];
  const offered: string[] = [];
  const verdicts = createDelegationVerdicts({
    load: async () => state,
    save: saved,
    sendToFrame: async (_tabId: number, frameId: number, message: BackgroundToFrameMessage) => {
      if (message.type !== 'bridge/offer-delegation') return undefined;
      asked.push(frameId);
      if (frameId !== 0 || allow === undefined) return [];
      const token = `t${asked.length}`;
      // The child hands its token back, as listen-for-tools-delegation.ts does (or, 'later', when the test says).
      if (handBack === 'at once') setTimeout(() => verdicts.present(ads, token), 0);
      else offered.push(token);
      return [{ token, allow, src: `${ADS}/` }];
    },
    delegationWaitMs: waitMs,
  });
  return { state, saved, asked, offered, verdicts };
}

const until = async (check: () => void) => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
};

describe('createDelegationVerdicts', () => {
  it('decides a frame of another origin with tools once per document, keeps the verdict and names its tools', async () => {
    const { state, saved, asked, verdicts } = setup('tools *');
    verdicts.check(1, 3, state);
    verdicts.check(1, 3, state);
    await until(() => expect(state.delegated[3]).toBe(true));
    expect(saved).toHaveBeenCalledTimes(1);
    expect(Object.values(state.names).sort()).toEqual(['pay', 'search']);
    verdicts.check(1, 3, state);
    expect(asked.filter((id) => id === 0)).toHaveLength(1);
  });

  it('decides nothing for the top, a frame of its origin, or a frame without tools', async () => {
    const { state, asked, verdicts } = setup('tools *');
    recordReport(state, 4, report(TOP, ['more']), 3);
    state.frames[3].tools = [];
    verdicts.check(1, 0, state);
    verdicts.check(1, 4, state);
    verdicts.check(1, 3, state);
    verdicts.checkBelowTop(1, state);
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toEqual([]);
    expect(state.delegated).toEqual({});
  });

  it('a frame the page did not delegate to serves nothing', async () => {
    const { state, verdicts } = setup('camera');
    verdicts.check(1, 3, state);
    await until(() => expect(state.delegated[3]).toBe(false));
    expect(Object.values(state.names)).toEqual(['search']);
  });

  it('no answer in time counts as no for now, and the next check asks again', async () => {
    const { state, asked, verdicts } = setup(undefined, 30);
    verdicts.check(1, 3, state);
    await until(() => expect(state.delegated[3]).toBe(false));
    verdicts.check(1, 3, state);
    await until(() => expect(asked.filter((id) => id === 0)).toHaveLength(2));
  });

  it('a token its frame hands back after the wait ran out still counts: the frame is decided again and serves its tools', async () => {
    const { state, offered, verdicts } = setup('tools *', 30, 'later');
    verdicts.check(1, 3, state);
    await until(() => expect(state.delegated[3]).toBe(false));
    expect(Object.values(state.names)).toEqual(['search']);
    // A busy machine: the child's answer comes after the decision gave up, and the frame does not report again.
    verdicts.present(ads, offered[0]);
    await until(() => expect(state.delegated[3]).toBe(true));
    expect(Object.values(state.names).sort()).toEqual(['pay', 'search']);
  });

  it('a token that matches nothing decides nothing again: junk from a frame starts no round', async () => {
    const { state, asked, verdicts } = setup(undefined, 30);
    verdicts.check(1, 3, state);
    await until(() => expect(state.delegated[3]).toBe(false));
    const rounds = asked.length;
    for (let i = 0; i < 20; i++) verdicts.present(ads, `junk-${i}`);
    verdicts.present({ ...ads, frameId: 0, origin: TOP }, 'junk');
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toHaveLength(rounds);
    expect(state.delegated[3]).toBe(false);
  });

  it('answers a frame asking whether it may use tools about the attested sender, and keeps the verdict for its tools', async () => {
    const { state, saved, asked, verdicts } = setup('tools *');
    expect(await verdicts.mayUseTools(ads)).toBe(true);
    expect(state.delegated[3]).toBe(true);
    expect(saved).toHaveBeenCalledTimes(1);
    // The kept verdict answers the next question without asking the page.
    expect(await verdicts.mayUseTools(ads)).toBe(true);
    expect(asked.filter((id) => id === 0)).toHaveLength(1);
    // A document of the top's origin that asks is checked as the others are: it said it cannot vouch for its ancestors.
    const same = { tabId: 1, frameId: 4, origin: TOP, url: `${TOP}/inner` };
    const { verdicts: other, state: otherState } = setup(undefined, 30);
    expect(await other.frameAsks(same)).toBe(false);
    expect(otherState.needsDelegation).toEqual({ 4: true });
    expect(otherState.seen[4]).toBe(TOP);
    expect(await verdicts.mayUseTools({ ...ads, frameId: 0, origin: TOP })).toBe(true);
  });

  it('the router asking on its own about an announced frame of the top’s origin trusts its origin: no mark, no round', async () => {
    const { state, asked, verdicts } = setup(undefined, 30);
    state.seen[0] = TOP;
    // Frame 4 announced itself (frame/ready) of the top's origin, all of whose ancestors it could read.
    const same = { tabId: 1, frameId: 4, origin: TOP, url: `${TOP}/inner` };
    state.seen[4] = TOP;
    expect(await verdicts.mayUseTools(same)).toBe(true);
    expect(state.needsDelegation?.[4]).toBeUndefined();
    expect(asked).toEqual([]);
    // A frame the router asks about before it announced itself has said nothing of its ancestors: it is checked.
    const early = { tabId: 1, frameId: 5, origin: TOP, url: `${TOP}/early` };
    expect(await verdicts.mayUseTools(early)).toBe(false);
    expect(state.needsDelegation?.[5]).toBe(true);
    expect(asked).toContain(0);
  });
});

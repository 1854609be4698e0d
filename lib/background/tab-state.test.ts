import { describe, expect, it } from 'vitest';
import {
  admittedFrameIds,
  allowedFrames,
  clearTab,
  dropOldPage,
  readTabState,
  recordReport,
  replaceDocument,
  type StoredFrame,
  type TabState,
} from './tab-state';
import { MAX_GONE_TOOL_NAMES_PER_TAB } from './page-limits';
import { toolIdentityKey } from '../agent/to-model-facing-names';

const frame = (origin: string, names: string[]): StoredFrame => ({
  url: `${origin}/`,
  origin,
  page: { url: `${origin}/`, title: 'Page' },
  tools: names.map((name) => ({ name, description: `${name} does things`, inputSchema: { type: 'object' as const } })),
});

const fresh = (): TabState => readTabState(undefined);

describe('tab state', () => {
  it('reads an older record with the maps it lacked, and a tab not known yet as empty', () => {
    expect(fresh()).toEqual({ frames: {}, names: {}, seen: {}, delegated: {} });
    const older = { frames: { 0: frame('https://shop.example', ['a']) } } as unknown as TabState;
    expect(readTabState(older)).toMatchObject({ names: {}, seen: {}, delegated: {} });
  });

  it('a report is kept with its time, its tools named, its origin seen; a frame of another origin is not admitted', () => {
    const state = fresh();
    recordReport(state, 0, frame('https://shop.example', ['search']), 100);
    recordReport(state, 3, frame('https://ads.example', ['search']), 200);
    expect(state.frames[0].at).toBe(100);
    expect(state.seen).toEqual({ 0: 'https://shop.example', 3: 'https://ads.example' });
    expect(admittedFrameIds(state)).toEqual([0]);
    // Only admitted frames' tools are named.
    expect(Object.values(state.names)).toEqual(['search']);
    state.delegated[3] = true;
    recordReport(state, 3, frame('https://ads.example', ['search']), 300);
    expect(admittedFrameIds(state)).toEqual([0, 3]);
    expect(new Set(Object.values(state.names)).size).toBe(2);
  });

  it('a page churning thousands of distinct tool names keeps its present names and at most the latest gone ones', () => {
    const state = fresh();
    recordReport(state, 0, frame('https://churn.example', ['keep']), 1);
    const kept = state.names;
    for (let i = 0; i < MAX_GONE_TOOL_NAMES_PER_TAB + 100; i++) {
      recordReport(state, 0, frame('https://churn.example', ['keep', `t${i}`]), 2 + i);
      expect(Object.keys(state.names).length).toBeLessThanOrEqual(2 + MAX_GONE_TOOL_NAMES_PER_TAB);
    }
    const last = MAX_GONE_TOOL_NAMES_PER_TAB + 99;
    // The tools listed now keep their names; of the gone ones the latest stay, so one that comes back has its name.
    expect(state.names[toolIdentityKey({ frameId: 0, origin: 'https://churn.example', name: 'keep' })]).toBe(Object.values(kept)[0]);
    expect(Object.values(state.names)).toContain(`t${last}`);
    expect(Object.values(state.names)).toContain(`t${last - MAX_GONE_TOOL_NAMES_PER_TAB}`);
    expect(Object.values(state.names)).not.toContain(`t${last - MAX_GONE_TOOL_NAMES_PER_TAB - 1}`);
  });

  it('a new document in a frame takes its tools and its delegation verdict, not its name history', () => {
    const state = fresh();
    recordReport(state, 0, frame('https://shop.example', ['search']), 1);
    recordReport(state, 3, frame('https://ads.example', ['pay']), 2);
    state.delegated[3] = true;
    const names = { ...state.names };
    expect(replaceDocument(state, 3)).toBe(3);
    expect(state.frames[3]).toBeUndefined();
    expect(state.delegated[3]).toBeUndefined();
    expect(state.names).toEqual(names);
  });

  it("a new top document after the tab navigated drops the old page's frames and names, and keeps the new page's early reporters", () => {
    const state = fresh();
    recordReport(state, 0, frame('https://shop.example', ['search']), 10);
    recordReport(state, 2, frame('https://shop.example', ['old']), 20);
    state.navigatedAt = 30;
    recordReport(state, 5, frame('https://shop.example', ['fresh']), 40);
    state.delegated[2] = false;
    state.needsDelegation = { 2: true };
    expect(dropOldPage(state).sort()).toEqual([0, 2]);
    expect(Object.keys(state.frames)).toEqual(['5']);
    expect(state.seen).toEqual({ 5: 'https://shop.example' });
    expect(state.delegated).toEqual({});
    expect(state.needsDelegation).toEqual({});
    expect(Object.values(state.names)).toEqual(['fresh']);
    expect(state.navigatedAt).toBeUndefined();
  });

  it('the top frame gone takes everything the tab offered', () => {
    const state = fresh();
    recordReport(state, 0, frame('https://shop.example', ['search']), 1);
    state.delegated[4] = true;
    clearTab(state);
    expect(state).toMatchObject({ frames: {}, names: {}, seen: {}, delegated: {}, needsDelegation: {} });
  });

  it('lists the frames allowed tools by the kept verdicts: the top, its origin unless it said it needs delegation, the delegated', () => {
    const state = fresh();
    state.seen = {
      0: 'https://shop.example',
      1: 'https://shop.example',
      2: 'https://shop.example',
      3: 'https://ads.example',
      4: 'https://w.example',
    };
    state.needsDelegation = { 2: true };
    state.delegated = { 4: true, 3: false };
    expect(allowedFrames(state)).toEqual([
      { frameId: 0, origin: 'https://shop.example' },
      { frameId: 1, origin: 'https://shop.example' },
      { frameId: 4, origin: 'https://w.example' },
    ]);
    // An opaque top vouches for no frame.
    state.seen[0] = 'null';
    state.seen[1] = 'null';
    expect(allowedFrames(state).map((f) => f.frameId)).toEqual([0, 4]);
  });
});

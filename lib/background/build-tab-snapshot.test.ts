import { describe, expect, it } from 'vitest';
import { buildTabSnapshot } from './build-tab-snapshot';
import type { TabState } from './tab-state';

const frame = (origin: string, names: string[]) => ({
  url: `${origin}/shop?x=1`,
  origin,
  page: { url: `${origin}/shop?x=1`, title: 'Shop', h1: 'Welcome' },
  tools: names.map((name) => ({ name, description: `${name} does things`, inputSchema: { type: 'object' as const } })),
});

describe('buildTabSnapshot', () => {
  it('offers the top frame, same-origin frames and delegated frames, under their given names, with the top page', () => {
    const state: TabState = {
      frames: {
        0: frame('https://shop.example', ['search']),
        2: frame('https://shop.example', ['search']),
        3: frame('https://ads.example', ['pay']),
        4: frame('https://widget.example', ['chat']),
      },
      names: { '2|https://shop.example|search': 'search_2' },
      seen: { 0: 'https://shop.example', 2: 'https://shop.example', 3: 'https://ads.example', 4: 'https://widget.example' },
      delegated: { 3: false, 4: true },
      revision: 7,
    };
    const snapshot = buildTabSnapshot(5, state);
    expect(snapshot.tools.map((t) => [t.name, t.originalName, t.frameId])).toEqual([
      ['search', 'search', 0],
      [expect.any(String), 'search', 2],
      ['chat', 'chat', 4],
    ]);
    expect(snapshot.page).toEqual({ url: 'https://shop.example/shop?x=1', path: '/shop', title: 'Shop', h1: 'Welcome' });
    expect(snapshot.revision).toBe(7);
    expect(snapshot.dropped).toEqual([
      {
        count: 1,
        reason: 'not-delegated',
        note: '1 tool from embedded frames of other sites left out: the page did not allow them to offer tools (allow="tools").',
      },
    ]);
  });

  it('keeps which legacy API a frame says a tool came through, only as one of the known names', () => {
    const top = frame('https://print.example', ['get_quote', 'hello', 'odd', 'modern']);
    const claims: unknown[] = ['navigator.modelContext', 'provideContext', '<img src=x>', undefined];
    for (const [i, tool] of top.tools.entries()) Object.assign(tool, { legacyApi: claims[i] });
    const snapshot = buildTabSnapshot(5, { frames: { 0: top }, names: {}, seen: { 0: 'https://print.example' }, delegated: {} });
    expect(snapshot.tools.map((t) => [t.name, t.legacyApi])).toEqual([
      ['get_quote', 'navigator.modelContext'],
      ['hello', 'provideContext'],
      ['odd', undefined],
      ['modern', undefined],
    ]);
    expect(snapshot.tools[2]).not.toHaveProperty('legacyApi');
  });
});

import { describe, expect, it } from 'vitest';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import { frameOriginOf, type SharedTool, whereOf } from './shared-tool';

const entry = (origin: string): TabToolEntry => ({ name: 't', originalName: 't', description: 'T.', inputSchema: {}, origin, frameId: 0 });
const tool = (origin?: string): SharedTool => ({
  tabId: 1,
  site: 'https://shop.example',
  tool: 't',
  ...(origin ? { origin } : {}),
  entry: entry(origin ?? 'https://shop.example'),
});

describe('shared tools', () => {
  it('judge a tool by its frame’s origin; a sandboxed frame stays "null"', () => {
    expect(frameOriginOf(entry('https://ads.example/frame?x'))).toBe('https://ads.example');
    expect(frameOriginOf(entry('null'))).toBe('null');
  });

  it('say where a tool is: on the site, in a frame of another origin inside it, or in a sandboxed frame', () => {
    expect(whereOf(tool())).toBe('on shop.example');
    expect(whereOf(tool('https://ads.example'))).toBe('on ads.example, a frame inside shop.example');
    expect(whereOf(tool('null'))).toBe('in a sandboxed frame inside shop.example');
  });
});

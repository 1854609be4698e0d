import { describe, expect, it } from 'vitest';
import type { FrameTool } from '../messaging/router-messages';
import { capTabTools, MAX_TOOL_BYTES_PER_TAB, MAX_TOOLS_PER_TAB, toolBytes } from './cap-tab-tools';

const tool = (name: string, description = 'd'): FrameTool => ({ name, description, inputSchema: { type: 'object' } });
const many = (prefix: string, n: number, description = 'd') => Array.from({ length: n }, (_, i) => tool(`${prefix}${i}`, description));
const keptNames = (frames: { frameId: number; tools: FrameTool[] }[], kept: Map<number, Set<number>>) =>
  frames.flatMap((f) => f.tools.filter((_, i) => kept.get(f.frameId)!.has(i)).map((t) => t.name));

describe('capTabTools', () => {
  it("keeps 9 frames × 256 tools to the tab cap, the top frame's tools first and the other frames in turns", () => {
    const frames = [
      { frameId: 0, tools: many('top', 10) },
      ...Array.from({ length: 8 }, (_, i) => ({ frameId: i + 1, tools: many(`f${i + 1}_`, 256) })),
    ];
    const { kept, dropped } = capTabTools(frames);
    const names = keptNames(frames, kept);
    expect(names).toHaveLength(MAX_TOOLS_PER_TAB);
    expect(dropped).toBe(10 + 8 * 256 - MAX_TOOLS_PER_TAB);
    expect(names.slice(0, 10)).toEqual(many('top', 10).map((t) => t.name));
    // 118 places left for 8 frames: each gets 14 or 15, none crowds out the others.
    for (let f = 1; f <= 8; f++) expect(kept.get(f)!.size).toBeGreaterThanOrEqual(14);
  });

  it('caps the bytes of descriptions and schemas, dropping whole tools that do not fit', () => {
    const big = 'x'.repeat(60 * 1024);
    const frames = [
      { frameId: 0, tools: [tool('small')] },
      { frameId: 3, tools: many('big', 6, big) },
      { frameId: 4, tools: [tool('late')] },
    ];
    const { kept, dropped } = capTabTools(frames);
    const names = keptNames(frames, kept);
    const bytes = frames.flatMap((f) => f.tools.filter((_, i) => kept.get(f.frameId)!.has(i))).reduce((n, t) => n + toolBytes(t), 0);
    expect(bytes).toBeLessThanOrEqual(MAX_TOOL_BYTES_PER_TAB);
    expect(names).toEqual(['small', 'big0', 'big1', 'big2', 'big3', 'late']);
    expect(dropped).toBe(2);
  });

  it('counts bytes as UTF-8', () => {
    expect(toolBytes({ name: 'a', description: 'é😀', inputSchema: {} })).toBe(1 + 2 + 4 + 2);
  });
});

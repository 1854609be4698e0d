import { describe, expect, it } from 'vitest';
import { rankTools } from '../agent/rank-tools';
import type { ToolDescriptor } from '../agent/types';
import { describeCompaction } from './describe-compaction';

const compactOf = (tool: ToolDescriptor) => rankTools([tool], '', { max: 1 })[0];
const cutsOf = (tool: ToolDescriptor) => describeCompaction(tool, compactOf(tool));

describe('describeCompaction', () => {
  it('finds nothing cut from a short tool with only the keywords a call needs', () => {
    const tool = {
      name: 'search',
      description: 'Search the catalog.',
      inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'Words.', enum: ['a', 'b'] } }, required: ['q'] },
    };
    expect(cutsOf(tool)).toEqual([]);
  });

  it('says which descriptions and enums the on-device prompt cuts, and which keywords it drops', () => {
    const tool = {
      name: 'pick',
      description: 'x'.repeat(400),
      inputSchema: {
        type: 'object',
        additionalProperties: false,
        properties: {
          colour: { type: 'string', title: 'Colour', enum: Array.from({ length: 30 }, (_, i) => `c${i}`), description: 'y'.repeat(200) },
          address: { $ref: '#/$defs/address' },
        },
        $defs: { address: { type: 'object', examples: [{}], properties: { city: { type: 'string' } } } },
      },
    };
    expect(cutsOf(tool)).toEqual([
      { kind: 'description', path: 'description', from: 400, to: 320 },
      { kind: 'dropped', path: 'inputSchema', keywords: ['additionalProperties'] },
      { kind: 'dropped', path: 'inputSchema.properties.colour', keywords: ['title'] },
      { kind: 'description', path: 'inputSchema.properties.colour.description', from: 200, to: 160 },
      { kind: 'enum', path: 'inputSchema.properties.colour.enum', from: 30, to: 24 },
      { kind: 'dropped', path: 'inputSchema.properties.address', keywords: ['examples'] },
    ]);
  });

  it('says where nesting is too deep to be shown at all', () => {
    let node: Record<string, unknown> = { type: 'string', description: 'leaf' };
    for (let i = 0; i < 7; i++) node = { type: 'object', properties: { [`l${i}`]: node } };
    const cuts = cutsOf({ name: 'deep', description: 'Deep.', inputSchema: node });
    expect(cuts).toEqual([
      { kind: 'too-deep', path: 'inputSchema.properties.l6.properties.l5.properties.l4.properties.l3.properties.l2.properties.l1' },
    ]);
  });
});

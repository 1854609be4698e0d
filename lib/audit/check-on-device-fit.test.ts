import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkOnDeviceFit } from './check-on-device-fit';

describe('checkOnDeviceFit', () => {
  it('finds nothing on a page of a few tools the on-device prompt shows whole', () => {
    expect(checkOnDeviceFit({ tools: [panelTool(), panelTool({ name: 'get_cart' })] })).toEqual([]);
  });

  it('notes more tools than the on-device agent shows per request', () => {
    const tools = Array.from({ length: 9 }, (_, i) => panelTool({ name: `tool_${i}` }));
    expect(checkOnDeviceFit({ tools }).map((f) => [f.rule, f.severity, f.message])).toEqual([
      [
        'on-device/many-tools',
        'info',
        'The page offers 9 tools; the on-device agent shows a small model the 8 that best match each request.',
      ],
    ]);
  });

  it('flags enums, descriptions and nesting the on-device prompt cuts', () => {
    let deep: Record<string, unknown> = { type: 'string', description: 'leaf' };
    for (let i = 0; i < 6; i++) deep = { type: 'object', description: 'Level.', properties: { [`l${i}`]: deep } };
    const tool = panelTool({
      name: 'pick',
      description: `Pick one. ${'More. '.repeat(60)}`,
      inputSchema: {
        type: 'object',
        properties: { colour: { type: 'string', description: 'Colour.', enum: Array.from({ length: 30 }, (_, i) => `c${i}`) }, deep },
      },
    });
    expect(checkOnDeviceFit({ tools: [tool] }).map((f) => [f.rule, f.field])).toEqual([
      ['on-device/description-cut', 'description'],
      ['on-device/enum-cut', 'inputSchema.properties.colour.enum'],
      ['on-device/too-deep', 'inputSchema.properties.deep.properties.l5.properties.l4.properties.l3.properties.l2.properties.l1'],
    ]);
  });
});

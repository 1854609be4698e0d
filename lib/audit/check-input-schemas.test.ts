import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkInputSchemas } from './check-input-schemas';

describe('checkInputSchemas', () => {
  it('finds nothing in a tool with a valid input schema', () => {
    expect(checkInputSchemas({ tools: [panelTool()] })).toEqual([]);
  });

  it('reports a schema the extension refused, with the tool and its frame', () => {
    const refused = panelTool({
      name: 'add',
      schemaError: 'inputSchema.type must be "object", not "string"',
      frameId: 2,
      origin: 'https://a.example',
    });
    expect(checkInputSchemas({ tools: [refused] })).toEqual([
      expect.objectContaining({
        rule: 'input-schema/refused',
        severity: 'error',
        tool: 'add',
        field: 'inputSchema',
        frameId: 2,
        origin: 'https://a.example',
        message: 'The inputSchema was refused: inputSchema.type must be "object", not "string".',
      }),
    ]);
  });

  it('reports what the schema linter finds, under input-schema/…, with the page’s name of the tool', () => {
    const tool = panelTool({
      name: 'cart_add',
      originalName: 'cart.add',
      inputSchema: { type: 'object', properties: { size: { type: 'string', enum: [] } }, required: ['size', 'colour'] },
    });
    const findings = checkInputSchemas({ tools: [tool] });
    expect(findings.map((f) => [f.rule, f.tool, f.field])).toEqual([
      ['input-schema/required-unknown', 'cart.add', 'inputSchema.required'],
      ['input-schema/enum-empty', 'cart.add', 'inputSchema.properties.size.enum'],
    ]);
    expect(findings.every((f) => f.why && f.fix)).toBe(true);
  });
});

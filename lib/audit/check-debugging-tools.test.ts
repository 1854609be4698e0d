import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import { checkDebuggingTools } from './check-debugging-tools';

describe('checkDebuggingTools', () => {
  it('reports each tool marked debugging: true, and no other', () => {
    const findings = checkDebuggingTools({
      tools: [
        panelTool({ name: 'dump_state', annotations: { debugging: true } }),
        panelTool({ name: 'search', annotations: { debugging: false } }),
        panelTool({ name: 'pay' }),
      ],
    });
    expect(findings.map((f) => [f.rule, f.severity, f.tool, f.field])).toEqual([
      ['annotation/debugging', 'info', 'dump_state', 'annotations.debugging'],
    ]);
    expect(findings[0].message).toContain('no agent is offered it');
  });
});

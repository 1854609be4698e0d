import { describe, expect, it } from 'vitest';
import { checkDroppedTools } from './check-dropped-tools';

describe('checkDroppedTools', () => {
  it('finds nothing when the agent gets every tool', () => {
    expect(checkDroppedTools({ tools: [] })).toEqual([]);
    expect(checkDroppedTools({ tools: [], dropped: [] })).toEqual([]);
  });

  it('notes frames whose tools the page did not delegate, and tools over the caps, in the router’s words', () => {
    const findings = checkDroppedTools({
      tools: [],
      dropped: [
        {
          count: 2,
          reason: 'not-delegated',
          note: '2 tools of a frame from partner.example are not offered: the page did not delegate them.',
        },
        { count: 40, reason: 'tab-cap', note: '40 tools over the limit are left out.' },
      ],
    });
    expect(findings.map((f) => [f.rule, f.severity, f.message])).toEqual([
      ['frame/not-delegated', 'info', '2 tools of a frame from partner.example are not offered: the page did not delegate them.'],
      ['frame/over-cap', 'info', '40 tools over the limit are left out.'],
    ]);
  });
});

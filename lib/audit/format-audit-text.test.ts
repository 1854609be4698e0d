import { describe, expect, it } from 'vitest';
import { formatAuditText } from './format-audit-text';

describe('formatAuditText', () => {
  it('prints one block per finding and the summary', () => {
    const text = formatAuditText({
      format: 'webmcp-agent-audit-report',
      page: { url: 'http://127.0.0.1:5174/demo/', title: 'Fern & Field' },
      auditedAt: '2026-12-01T10:00:00.000Z',
      looked: { tools: 5, frames: 2, forms: 3, results: 0, examples: 0 },
      counts: { error: 0, warning: 1, info: 0 },
      findings: [
        {
          rule: 'parameter/no-description',
          severity: 'warning',
          tool: 'where',
          field: 'inputSchema.properties.city',
          origin: 'http://localhost:5174',
          frameId: 3,
          message: 'The parameter city has no description.',
          why: 'The model guesses.',
          fix: 'Describe it.',
        },
      ],
    });
    expect(text).toBe(
      [
        'WebMCP audit of http://127.0.0.1:5174/demo/ (“Fern & Field”)',
        '',
        'WARNING parameter/no-description  where › inputSchema.properties.city',
        '        in frame 3 (http://localhost:5174)',
        '        The parameter city has no description.',
        '        Why: The model guesses.',
        '        Fix: Describe it.',
        '',
        '5 tools in 2 frames, 3 forms, 0 results: 0 errors, 1 warning, 0 info',
      ].join('\n'),
    );
  });
});

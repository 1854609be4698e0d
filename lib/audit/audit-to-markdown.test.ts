import { describe, expect, it } from 'vitest';
import type { AuditReport } from './audit-types';
import { auditToMarkdown } from './audit-to-markdown';

const report = (patch: Partial<AuditReport> = {}): AuditReport => ({
  format: 'webmcp-agent-audit-report',
  page: { url: 'https://shop.example/', title: 'Shop' },
  auditedAt: '2026-12-01T10:00:00.000Z',
  looked: { tools: 2, frames: 1, forms: 1, results: 0, examples: 0 },
  counts: { error: 0, warning: 0, info: 0 },
  findings: [],
  ...patch,
});

describe('auditToMarkdown', () => {
  it('says there are no findings', () => {
    expect(auditToMarkdown(report())).toBe(
      [
        '# WebMCP audit: Shop',
        '',
        '- Page: `https://shop.example/`',
        '- Audited: 2026-12-01T10:00:00.000Z',
        '- 2 tools in 1 frame, 1 form, 0 results: 0 errors, 0 warnings, 0 info',
        '',
        'No findings.',
        '',
        "Character budgets: Chrome's WebMCP guidance, https://developer.chrome.com/docs/ai/webmcp/secure-tools",
        '',
      ].join('\n'),
    );
  });

  it('lists findings by severity, each with its tool, field, frame, why and fix', () => {
    const text = auditToMarkdown(
      report({
        counts: { error: 1, warning: 0, info: 0 },
        findings: [
          {
            rule: 'description/missing',
            severity: 'error',
            tool: 'zap',
            field: 'description',
            origin: 'https://shop.example',
            frameId: 0,
            message: 'The tool has no description.',
            why: 'Models choose tools by their descriptions.',
            fix: 'Describe it.',
          },
        ],
      }),
    );
    expect(text).toContain(
      [
        '## Errors (1)',
        '',
        '### `zap`: description/missing',
        '',
        '- Field: `description`',
        '- Frame: top frame, `https://shop.example`',
        '- What: The tool has no description.',
        '- Why: Models choose tools by their descriptions.',
        '- Fix: Describe it.',
      ].join('\n'),
    );
  });

  it('keeps page text as text: no link, image, HTML or early end of a code span', () => {
    const text = auditToMarkdown(
      report({
        page: { title: '![x](https://evil.example/p.png) <img src=x>' },
        findings: [
          {
            rule: 'description/one-word',
            severity: 'warning',
            tool: 'a`b',
            message: 'The description is one word: “[click](https://evil.example)”.',
            why: 'w',
            fix: 'f',
          },
        ],
      }),
    );
    expect(text).toContain('# WebMCP audit: \\!\\[x\\]\\(https://evil.example/p.png\\) \\<img src=x\\>');
    expect(text).toContain('### ``a`b``: description/one-word');
    expect(text).toContain('“\\[click\\]\\(https://evil.example\\)”');
  });
});

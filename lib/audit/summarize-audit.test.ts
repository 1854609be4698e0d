import { describe, expect, it } from 'vitest';
import type { AuditReport } from './audit-types';
import { summarizeAudit } from './summarize-audit';

const report = (looked: AuditReport['looked'], counts: AuditReport['counts']): AuditReport => ({
  format: 'webmcp-agent-audit-report',
  page: {},
  auditedAt: '2026-12-01T10:00:00.000Z',
  looked,
  counts,
  findings: [],
});

describe('summarizeAudit', () => {
  it('says what was looked at and found, in words', () => {
    expect(summarizeAudit(report({ tools: 1, frames: 1, forms: 2, results: 1, examples: 0 }, { error: 1, warning: 2, info: 0 }))).toBe(
      '1 tool in 1 frame, 2 forms, 1 result: 1 error, 2 warnings, 0 info',
    );
  });

  it('leaves forms out when they could not be read, and counts eval requests when there were some', () => {
    expect(summarizeAudit(report({ tools: 3, frames: 2, results: 0, examples: 4 }, { error: 0, warning: 0, info: 3 }))).toBe(
      '3 tools in 2 frames, 0 results, 4 eval requests: 0 errors, 0 warnings, 3 info',
    );
  });
});

import type { AuditFinding, AuditInput } from './audit-types';

/**
 * Declarative coverage: forms an agent could use but that are no tool (no `toolname`), and `<form toolname>`
 * without a `tooldescription` (the polyfill does not register it, and Chrome reports it as invalid).
 */
export function checkFormCoverage(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const frame of input.forms ?? []) {
    for (const form of frame.forms) {
      const where = { origin: frame.origin, frameId: frame.frameId };
      if (form.toolname === undefined) {
        const named = form.fields.filter((f) => f.name !== '').length;
        if (named === 0) continue;
        findings.push({
          rule: 'form/not-a-tool',
          severity: 'info',
          field: form.label,
          ...where,
          message: `The form ${form.label} (${named} field${named === 1 ? '' : 's'}) is not a WebMCP tool.`,
          why: 'An agent can use a form only as a tool (or by clicking and typing, which breaks easily). If a tool already does what it does, this is fine.',
          fix: 'Add toolname="…" and tooldescription="…" to the <form>, and toolparamdescription to its fields, if agents should use it.',
        });
      } else if (!form.hasDescription) {
        findings.push({
          rule: 'form/no-description',
          severity: 'error',
          tool: form.toolname,
          field: `${form.label} tooldescription`,
          ...where,
          message: `The form ${form.label} has toolname="${form.toolname}" but no tooldescription.`,
          why: 'A declarative tool needs both: without a description this extension’s WebMCP does not register it, and Chrome reports it as invalid.',
          fix: 'Add tooldescription="…": what submitting the form does, and when to use it.',
        });
      }
    }
  }
  return findings;
}

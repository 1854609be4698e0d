import type { AuditFinding, AuditInput } from './audit-types';

/**
 * `<form toolname>` fields without a `name`: the form sends nothing for them, and no tool parameter comes from
 * them, so an agent cannot fill them in (their descriptions are checked as the tool's parameters, checkParameters).
 */
export function checkFormFields(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const frame of input.forms ?? []) {
    for (const form of frame.forms) {
      if (form.toolname === undefined) continue;
      form.fields.forEach((field, index) => {
        if (field.name !== '') return;
        const which = `field ${index + 1}${field.label ? ` (“${field.label}”)` : ''}`;
        findings.push({
          rule: 'form/field-unnamed',
          severity: 'warning',
          tool: form.toolname,
          field: `${form.label}, ${which}`,
          origin: frame.origin,
          frameId: frame.frameId,
          message: `The ${field.type} ${which} of the form ${form.label} has no name.`,
          why: 'Only named fields become the tool’s parameters: an agent cannot fill this one, and the form may fail without it.',
          fix: 'Give it a name="…" (and a toolparamdescription or a <label>).',
        });
      });
    }
  }
  return findings;
}

import { resolveLocalRef } from '../schema/resolve-pointer';
import { SCHEMA_VIEW_LIMITS } from '../schema/schema-limits';
import { isRecord } from '../shared/is-record';
import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, quote } from './finding-for';
import { WEBMCP_BUDGETS } from './webmcp-budgets';

/** Most parameter names listed in one finding. */
const MAX_LISTED = 8;

interface Parameter {
  name: string;
  path: string;
  schema: Record<string, unknown>;
}

/**
 * Parameters an agent can fill: each with a description (within Chrome's 150-character budget) and a name within
 * the 30-character budget. Parameters without a description are one finding per tool, listing them.
 */
export function checkParameters(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const tool of input.tools) {
    if (tool.schemaError) continue;
    const parameters = parametersOf(tool.inputSchema);
    const bare = parameters.filter((p) => !describedIn(p.schema, tool.inputSchema));
    if (bare.length) {
      const listed = bare.slice(0, MAX_LISTED).map((p) => p.name);
      const more = bare.length > MAX_LISTED ? ` and ${bare.length - MAX_LISTED} more` : '';
      findings.push(
        findingFor(tool, {
          rule: 'parameter/no-description',
          severity: 'warning',
          field: bare.length === 1 ? bare[0].path : `inputSchema.properties (${listed.join(', ')}${more})`,
          message:
            bare.length === 1
              ? `The parameter ${listed[0]} has no description.`
              : `${bare.length} parameters have no description: ${listed.join(', ')}${more}.`,
          why: 'The model guesses what goes there from the name alone: the format, the unit, which values make sense.',
          fix: tool.declarative
            ? 'Give each field toolparamdescription="…" or a <label>.'
            : 'Give each property a "description": what it is, its format or unit, an example.',
        }),
      );
    }
    for (const parameter of parameters) {
      const description = typeof parameter.schema.description === 'string' ? quote(parameter.schema.description, 10_000) : '';
      if (description.length > WEBMCP_BUDGETS.parameterDescription) {
        findings.push(
          findingFor(tool, {
            rule: 'parameter/description-too-long',
            severity: 'warning',
            field: `${parameter.path}.description`,
            message: `The description of ${parameter.name} is ${description.length} characters long; Chrome's budget is ${WEBMCP_BUDGETS.parameterDescription}.`,
            why: 'Long parameter descriptions crowd small models’ context (the on-device agent cuts them at 160 characters) and run into agents’ safeguards.',
            fix: 'Say what it is, its format or unit and one example; leave the rest to the tool’s description.',
          }),
        );
      }
      if (parameter.name.length > WEBMCP_BUDGETS.parameterName) {
        findings.push(
          findingFor(tool, {
            rule: 'parameter/name-too-long',
            severity: 'warning',
            field: parameter.path,
            message: `The parameter name ${parameter.name} is ${parameter.name.length} characters long; Chrome's budget is ${WEBMCP_BUDGETS.parameterName}.`,
            why: 'The model must write the name back exactly in every call: long names cost tokens and get misspelt.',
            fix: `Shorten it to ${WEBMCP_BUDGETS.parameterName} characters or fewer.`,
          }),
        );
      }
    }
  }
  return findings;
}

/** The properties of a tool's input, and of objects nested in it (a few levels, through arrays), with their paths. */
function parametersOf(schema: unknown): Parameter[] {
  const out: Parameter[] = [];
  const visit = (node: unknown, path: string, depth: number) => {
    const resolved = resolveRef(node, schema);
    if (!isRecord(resolved) || depth > SCHEMA_VIEW_LIMITS.parameterDepth) return;
    if (isRecord(resolved.properties)) {
      for (const [name, sub] of Object.entries(resolved.properties)) {
        const target = resolveRef(sub, schema);
        if (!isRecord(target)) continue;
        const subPath = `${path}.properties.${quote(name, 60)}`;
        out.push({ name: quote(name, 60), path: subPath, schema: isRecord(sub) && typeof sub.description === 'string' ? sub : target });
        visit(target, subPath, depth + 1);
      }
    }
    if (isRecord(resolved.items)) visit(resolved.items, `${path}.items`, depth + 1);
  };
  visit(schema, 'inputSchema', 0);
  return out;
}

function describedIn(node: Record<string, unknown>, root: unknown): boolean {
  const target = resolveRef(node, root);
  const text = (n: unknown) => (isRecord(n) && typeof n.description === 'string' ? n.description.trim() : '');
  return text(node) !== '' || text(target) !== '' || (isRecord(target) && typeof target.title === 'string' && target.title.trim() !== '');
}

function resolveRef(node: unknown, root: unknown): unknown {
  if (isRecord(node) && typeof node.$ref === 'string') return resolveLocalRef(root, node.$ref) ?? node;
  return node;
}

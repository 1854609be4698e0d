import { rankTools } from '../agent/rank-tools';
import { LOCAL_LOOP_DEFAULTS } from '../local-agent/run-local-agent';
import type { AuditFinding, AuditInput } from './audit-types';
import { describeCompaction } from './describe-compaction';
import { findingFor } from './finding-for';

/**
 * What the on-device agent cannot show a small model: more tools than it shows per request, and, per tool, the parts
 * its compact prompt cuts (describeCompaction): a long description, long enums, many alternatives, deep nesting.
 */
export function checkOnDeviceFit(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  const { tools } = input;
  const maxTools = LOCAL_LOOP_DEFAULTS.maxTools;
  if (tools.length > maxTools) {
    findings.push({
      rule: 'on-device/many-tools',
      severity: 'info',
      message: `The page offers ${tools.length} tools; the on-device agent shows a small model the ${maxTools} that best match each request.`,
      why: 'A tool whose name, title and description do not share words with what people ask is left out, and small models choose badly among many similar tools.',
      fix: 'Register only the tools that make sense on the current view, use the words people ask with, or split the work between sub-agents (site profiles).',
    });
  }
  const compacts = rankTools(tools, '', { max: tools.length });
  for (const tool of tools) {
    if (tool.schemaError) continue;
    const compact = compacts.find((c) => c.name === tool.name);
    if (!compact) continue;
    for (const cut of describeCompaction(tool, compact)) {
      if (cut.kind === 'description' && cut.path === 'description') {
        findings.push(
          findingFor(tool, {
            rule: 'on-device/description-cut',
            severity: 'info',
            field: 'description',
            message: `The on-device prompt shows ${cut.to} of the description's ${cut.from} characters.`,
            why: 'What comes after the cut never reaches a small model.',
            fix: 'Put what the tool does and when to use it first, or shorten the description.',
          }),
        );
      } else if (cut.kind === 'enum') {
        findings.push(
          findingFor(tool, {
            rule: 'on-device/enum-cut',
            severity: 'warning',
            field: cut.path,
            message: `The enum has ${cut.from} values; the on-device prompt shows the first ${cut.to}.`,
            why: 'A small model never sees the other values, so it cannot choose them (the validator still accepts them).',
            fix: 'Take a free-text parameter and match it in the tool, or narrow the list to what the current view offers.',
          }),
        );
      } else if (cut.kind === 'alternatives') {
        findings.push(
          findingFor(tool, {
            rule: 'on-device/alternatives-cut',
            severity: 'warning',
            field: cut.path,
            message: `There are ${cut.from} alternatives; the on-device prompt shows the first ${cut.to}.`,
            why: 'A small model never sees the others.',
            fix: 'Use fewer alternatives, or one object with optional properties.',
          }),
        );
      } else if (cut.kind === 'too-deep') {
        findings.push(
          findingFor(tool, {
            rule: 'on-device/too-deep',
            severity: 'warning',
            field: cut.path,
            message: 'This part is nested too deep for the on-device prompt: a small model sees it as an empty object.',
            why: 'The model cannot fill in what it is not shown.',
            fix: 'Flatten the schema: a few levels of named properties at most.',
          }),
        );
      }
    }
  }
  return findings;
}

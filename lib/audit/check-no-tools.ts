import type { AuditFinding, AuditInput } from './audit-types';

/** The WebMCP spec, where an author starts. */
const WEBMCP_SPEC_URL = 'https://webmachinelearning.github.io/webmcp/';

/**
 * A page with no WebMCP tools at all, said plainly, with where to start: without it, the audit of such a page reads
 * "No findings", as if all were well. Not made when some frame has tools the agent does not get (frame/not-delegated
 * and frame/over-cap say so).
 */
export function checkNoTools(input: AuditInput): AuditFinding[] {
  if (input.tools.length > 0 || (input.dropped ?? []).some((dropped) => dropped.count > 0)) return [];
  return [
    {
      rule: 'page/no-tools',
      severity: 'info',
      message: `This page offers agents no WebMCP tools: no frame registered one, by script or with a <form toolname>.${formsSaid(input)}`,
      why: 'An agent uses a page through its tools; without them it can only click and type, which breaks easily.',
      fix: `Start with the WebMCP spec (${WEBMCP_SPEC_URL}): register a tool with document.modelContext.registerTool({ name, description, inputSchema, execute }), or add toolname and tooldescription to a form. The demo shop in this extension's source (demo/tools.js, demo/index.html) does both, and docs/audit.md says what makes a tool good for an agent. If the page registers its tools through navigator.modelContext or provideContext (the 2025 API), a browser with native WebMCP has neither: use document.modelContext.registerTool.`,
    },
  ];
}

/** What the forms scan saw, when it could read the page's forms. */
function formsSaid(input: AuditInput): string {
  if (!input.forms) return '';
  const forms = input.forms.flatMap((frame) => frame.forms);
  if (forms.length === 0) return ' It has no forms either.';
  const named = forms.filter((form) => form.toolname !== undefined).length;
  const count = `${forms.length} form${forms.length === 1 ? '' : 's'}`;
  return named === 0
    ? ` It has ${count}, none with a toolname.`
    : ` It has ${count}; ${named} with a toolname did not become a tool (see the form findings).`;
}

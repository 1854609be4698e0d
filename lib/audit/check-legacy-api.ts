import type { PanelTool } from '../messaging/agent-messages';
import type { LegacyApi } from '../messaging/tab-tool-snapshot';
import type { AuditFinding, AuditInput } from './audit-types';
import { pageName, quote } from './finding-for';

/** Most tool names a finding lists; the rest are counted. */
const MAX_NAMED = 8;

const RULES: Record<LegacyApi, Pick<AuditFinding, 'rule' | 'field' | 'why' | 'fix'> & { through: string }> = {
  'navigator.modelContext': {
    rule: 'api/legacy-navigator',
    field: 'navigator.modelContext',
    through: 'navigator.modelContext, the 2025 API Chromium no longer has',
    why: 'Chromium’s WebMCP has document.modelContext only. In a browser with native WebMCP (Chrome with WebMCP on), navigator.modelContext is undefined: the page’s registration throws, and agents there find none of these tools, unless the page brings a polyfill or falls back to document.modelContext. They work here because this extension’s polyfill keeps the old alias.',
    fix: 'Register them with document.modelContext.registerTool(tool, { signal }) (abort the signal to unregister), when document.modelContext exists.',
  },
  provideContext: {
    rule: 'api/legacy-provide-context',
    field: 'provideContext',
    through: 'document.modelContext.provideContext(), from the 2025 API, which Chromium no longer has',
    why: 'Chromium’s WebMCP has registerTool only. In a browser with native WebMCP, provideContext is not a function: the page’s registration throws, and agents there find none of these tools. They work here because this extension’s polyfill keeps the old methods.',
    fix: 'Register each with document.modelContext.registerTool(tool, { signal }); to replace a set of tools, abort the old ones’ signals and register the new ones.',
  },
};

/**
 * Tools registered through an API generation native WebMCP no longer has (`navigator.modelContext`,
 * `provideContext`): one finding per frame and API, naming its tools. The panel knows this only for tools this
 * extension's polyfill registered (PanelTool.legacyApi); on a browser with native WebMCP such a page registers
 * nothing, and the audit says so with page/no-tools.
 */
export function checkLegacyApi(input: AuditInput): AuditFinding[] {
  const groups = new Map<string, PanelTool[]>();
  for (const tool of input.tools) {
    if (!tool.legacyApi || !Object.hasOwn(RULES, tool.legacyApi)) continue;
    const key = `${tool.frameId ?? 0} ${tool.legacyApi}`;
    groups.set(key, [...(groups.get(key) ?? []), tool]);
  }
  return [...groups.values()].map((tools) => {
    const { through, ...rule } = RULES[tools[0].legacyApi as LegacyApi];
    const { origin, frameId } = tools[0];
    return {
      ...rule,
      severity: 'warning' as const,
      ...(origin ? { origin: quote(origin, 200) } : {}),
      ...(typeof frameId === 'number' ? { frameId } : {}),
      message: `${tools.length === 1 ? '1 tool is' : `${tools.length} tools are`} registered through ${through}: ${named(tools)}.`,
    };
  });
}

/** The tools' page names, the first few, then how many more. */
function named(tools: PanelTool[]): string {
  const names = tools.slice(0, MAX_NAMED).map(pageName).join(', ');
  return tools.length > MAX_NAMED ? `${names} and ${tools.length - MAX_NAMED} more` : names;
}

/**
 * The tools of every tab in a task, as one list for the model (docs/security.md, "Tasks across tabs"): each under a
 * site-qualified name (`recipes_example__find_recipe`, lib/agent/site-tool-names.ts, as the desktop bridge names
 * them), its description led by where it runs (its frame's origin, its tab's site and title), and each name
 * resolved back to the exact tab, site and tool it was listed under. Ranking them together for a small model is the
 * on-device loop's own step (lib/agent/rank-tools.ts reads a qualified name's site and leaves the lead out,
 * pooledDescriptionLead); the recall bench pools with this same function (lib/evals/measure-tool-recall.ts).
 */
import type { ToolNames } from './site-tool-names';
import type { PageContext, ToolDescriptor } from './types';
import { cleanPageText } from '../page-data/clean-page-text';
import { hostOf } from '../shared/host-of';

/** One tab of the task as the pool reads it: the tools its own site's profile offers, and its page. */
export interface TaskTabTools {
  tabId: number;
  /** The site the tab was added on (the own tab: the run's site). */
  site: string;
  page?: PageContext;
  /** The tools offered in that tab, under their model-facing names there, each with its frame's origin. */
  tools: readonly (ToolDescriptor & { origin?: string })[];
}

/** Which tab, site and tool a pooled name stands for. */
interface PooledToolTarget {
  tabId: number;
  site: string;
  /** The tool's model-facing name in its own tab. */
  tool: string;
}

/** The pooled list and its names. */
export interface PooledTools {
  tools: ToolDescriptor[];
  /** The tab, site and tool a name was listed under in this pool; undefined for a name it did not list. */
  resolve(name: string): PooledToolTarget | undefined;
}

/**
 * Pools the tabs' tools under names from `names` (one registry per conversation, so a name never stands for
 * another tab, site or frame while the conversation lasts).
 *
 * @param tabs The task's tabs, the conversation's own first.
 * @param names The conversation's name registry (createToolNames).
 */
export function poolTaskTools(tabs: readonly TaskTabTools[], names: Pick<ToolNames, 'nameOf'>): PooledTools {
  const targets = new Map<string, PooledToolTarget>();
  const tools: ToolDescriptor[] = [];
  for (const tab of tabs) {
    const where = whereTab(tab);
    for (const { origin, ...tool } of tab.tools) {
      const frame = origin !== undefined && origin !== tab.site ? origin : undefined;
      const name = names.nameOf({ tabId: tab.tabId, site: tab.site, tool: tool.name, ...(frame ? { origin: frame } : {}) });
      targets.set(name, { tabId: tab.tabId, site: tab.site, tool: tool.name });
      const on = frame ? `${frame === 'null' ? 'In a sandboxed frame' : `On ${hostOf(frame)}, a frame`} inside ${where}` : `On ${where}`;
      tools.push({ ...tool, name, description: tool.description ? `${on}: ${tool.description}` : `${on}.` });
    }
  }
  return { tools, resolve: (name) => targets.get(name) };
}

/** A tab in words for the model: its site and, when known, its page's title (page text, cleaned). */
function whereTab(tab: TaskTabTools): string {
  const title = cleanPageText(tab.page?.title, { oneLine: true, max: 80 });
  return `${hostOf(tab.site)}${title ? ` (tab “${title}”)` : ''}`;
}

/**
 * What poolTaskTools put before a tool's description ("On shop.example (tab “Basket”): "), matched by its own
 * grammar, at the start only. A page's title inside it can only end the match early (the rest of the title then
 * reads as description), never make it reach into the page's description.
 */
const LEAD = /^(?:On \S+?, a frame inside |In a sandboxed frame inside |On )\S+?(?: \(tab “[\s\S]*?”\))?(?:: |\.$)/;

/**
 * How many characters of a pooled tool's description say where it runs (0 for a description poolTaskTools did not
 * lead): the ranker reads the tool's site from its name and leaves these out, as words the tool does not say.
 */
export function pooledDescriptionLead(description: string): number {
  return LEAD.exec(description)?.[0].length ?? 0;
}

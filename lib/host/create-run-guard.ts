/**
 * The rules every agent call of one run obeys where it is executed, whatever the model was prompted with
 * (docs/security.md, "A conversation belongs to its site" and "Only the tools offered run"):
 *
 * - A run belongs to the top-level site it started on. When the tab reaches another site, the run is over:
 *   nothing more runs, and it ends saying why. The new site's profile (instructions, tools, sub-agents) never
 *   inherits the old one's run.
 * - Only a tool offered to the calling agent runs (its own list, at its delegation depth); any other name is
 *   `unknown_tool` before it reaches the page or the person.
 * - A call asks the person, whatever the policy, grants and annotations say, when the conversation holds what was
 *   read on another origin than the one of the frame that owns the called tool (a delegated frame of another site
 *   inside the page is another origin: the top site's data must not reach it unseen, nor its data the top site's
 *   tools), or when an earlier call of the same tool in this run may have acted without saying so (outcome unknown).
 */
import type { ForcedQuestion } from '../messaging/client-call-request';
import { agentAtPath } from '../agent/agent-at-path';
import { isDebuggingTool } from '../agent/is-debugging-tool';
import { isToolOffered } from '../agent/is-tool-offered';
import { selectTools } from '../agent/select-tools';
import { OUTCOME_UNKNOWN_NOTE, parseToolError } from '../agent/tool-error-codes';
import { toolOutputText } from '../agent/tool-output-text';
import type { ToolCall, ToolDescriptor, ToolOutput, WebAgent } from '../agent/types';
import { hostOf } from '../shared/host-of';
import { originLabel } from '../shared/origin-label';
import { toolErrorOutput } from '../agent/tool-error-output';
import type { ToolIdentity } from './create-confirmation-flow';
import type { TaskFlows } from './create-task-flows';
import { webOriginOf } from '../shared/web-origin-of';

/** Error codes after which a call that is not read-only may have acted: the page never said how it ended. */
const OUTCOME_UNKNOWN_CODES = new Set(['timeout', 'frame_gone', 'navigated', 'tool_threw']);

/** Why the run ended when its tab reached another site. */
export const SITE_CHANGED_RUN_ERROR = (from: string, to: string) =>
  `The tab moved from ${hostOf(from)} to ${hostOf(to)}, so the run stopped: what the agent read on ${hostOf(from)} ` +
  `stays with ${hostOf(from)}. Ask again to go on with ${hostOf(to)}.`;

/**
 * Why a call of the run is refused while the tab's site is not known (its page is loading, or the router has not
 * heard from its top frame yet): a site not known yet counts as another site (docs/security.md).
 */
const SITE_UNKNOWN_CALL_ERROR = (site: string | undefined) =>
  `the tab's site is not known right now (its page may still be loading), and this run belongs to ${site ? hostOf(site) : 'a site not known'}. Nothing was run.`;

interface RunGuardDeps {
  /**
   * The top-level site (origin) the run started on: a run never starts on a site it does not know. Undefined only for
   * a desktop agent's guard (lib/mcp-bridge), which judges calls (`mustAsk`, `settle`) and is told no site: with
   * none, `leftSite` refuses every call and `onSite` is false, so nothing can rely on a site that is not known.
   */
  site: string | undefined;
  /** The site's agent the run was given: what it and its sub-agents were offered. */
  agent: WebAgent | undefined;
  /** Aborts the run (the tab reached another site). */
  stop: () => void;
  /**
   * The conversation's task across tabs (docs/security.md, "Tasks across tabs"), when it has one: the crossings the
   * person allowed for the task do not ask again, and while `offer` says the task spans several tabs a question
   * about a crossing offers "Allow for this task". Without it, every crossing asks and nothing more is offered.
   */
  task?: { flows: Pick<TaskFlows, 'allows'>; offer: () => boolean };
}

/** One run's guard: created when the run starts, asked before and after each of its agent calls. */
export interface RunGuard {
  /**
   * The tab now shows `site` (undefined: not known right now). A run that started on another site ends; while the
   * site is not known, nothing of the run reaches the page.
   */
  notice(site: string | undefined): void;
  /** The crossing that ended the run, once there was one. */
  crossed(): { from: string; to: string } | undefined;
  /** Whether the tab is known to show the run's site now: only then does the model see the page's tools. */
  onSite(): boolean;
  /** The answer for any call while the tab is not known to show the run's site; undefined while it is. */
  leftSite(): ToolOutput | undefined;
  /** The answer for a call that must not reach the page at all, or undefined when it may go on. */
  refuse(call: ToolCall, agentPath: readonly string[], pageTools: readonly ToolDescriptor[]): ToolOutput | undefined;
  /**
   * Why this call must ask whatever the policy says; undefined when the policy decides. `held` are the origins
   * whose data the caller holds (the conversation's, or a desktop agent's); the call is judged by the origin of the
   * frame that owns the tool (`identity.origin`), the run's site standing in only for a tool that names none.
   */
  mustAsk(identity: ToolIdentity, held: readonly string[]): ForcedQuestion | undefined;
  /** The call's output as the model and panel get it, remembering a call whose outcome is unknown. */
  settle(tool: ToolDescriptor, identity: ToolIdentity, output: ToolOutput): ToolOutput;
}

/** Creates the guard of one run. */
export function createRunGuard(deps: RunGuardDeps): RunGuard {
  const { site } = deps;
  let crossing: { from: string; to: string } | undefined;
  /** The tab's site is not known right now: what is not known yet counts as another site until it is. */
  let unknown = false;
  const unknownOutcomes = new Set<string>();
  const leftSite = () =>
    crossing
      ? toolErrorOutput(
          'tool_changed',
          `the tab is on ${hostOf(crossing.to)} now, not ${hostOf(crossing.from)} where this run started. Nothing was run.`,
        )
      : unknown || site === undefined
        ? toolErrorOutput('tool_changed', SITE_UNKNOWN_CALL_ERROR(site))
        : undefined;

  return {
    notice(now) {
      if (crossing || site === undefined) return;
      unknown = now === undefined;
      if (now !== undefined && now !== site) {
        crossing = { from: site, to: now };
        deps.stop();
      }
    },
    crossed: () => crossing,
    onSite: () => site !== undefined && !crossing && !unknown,
    leftSite,
    refuse(call, agentPath, pageTools) {
      const left = leftSite();
      if (left) return left;
      // A debugging tool is the page's developers', never an agent's: refused like a name that was never offered,
      // whatever the page or the model says (a page may mark a destructive tool so and talk the model into it).
      const debugging = pageTools.some((t) => t.name === call.name && isDebuggingTool(t));
      if (!debugging && isToolOffered(deps.agent, agentPath, call.name)) return undefined;
      const name = String(call.name).replace(/\s+/g, ' ').slice(0, 64);
      const offered = offeredNames(deps.agent, agentPath, pageTools);
      return toolErrorOutput(
        'unknown_tool',
        `no tool named "${name}" is offered to you. Available tools: ${offered.join(', ') || 'none'}.`,
      );
    },
    mustAsk(identity, held) {
      const reasons: string[] = [];
      // Where the arguments would go: the tool's own frame, not the tab's top site. Unknown counts as elsewhere.
      const target = identity.origin ?? site;
      const elsewhere = held.filter((s) => s !== target && !(target && deps.task?.flows.allows(s, target)));
      if (elsewhere.length > 0) {
        const where = target ? originLabel(target) : 'this site';
        reasons.push(
          `This conversation holds what was read on ${elsewhere.map(originLabel).join(', ')}; the arguments below would go to ${where}.`,
        );
      }
      if (unknownOutcomes.has(keyOf(identity))) {
        reasons.push('Its last call in this run may have happened without saying so (outcome unknown): check the page first.');
      }
      if (reasons.length === 0) return undefined;
      // "Allow for this task" covers a crossing and nothing else: not a call whose outcome went unknown, not a
      // sandboxed frame (an opaque origin names no site), and only in a task of several tabs.
      const offer = reasons.length === 1 && elsewhere.length > 0 && webOriginOf(target) !== undefined && deps.task?.offer();
      return offer && target
        ? { reason: reasons[0] as string, flows: elsewhere.map((from) => ({ from, to: target })) }
        : { reason: reasons.join(' ') };
    },
    settle(tool, identity, output) {
      if (!output.isError || tool.annotations?.readOnlyHint === true) return output;
      const code = parseToolError(toolOutputText(output))?.code;
      if (!code || !OUTCOME_UNKNOWN_CODES.has(code)) return output;
      unknownOutcomes.add(keyOf(identity));
      return { ...output, content: withNote(output.content) };
    },
  };
}

/** The tools the agent at `path` was offered (its page tools and delegate tools), by name, for the model's error text. */
function offeredNames(agent: WebAgent | undefined, path: readonly string[], pageTools: readonly ToolDescriptor[]): string[] {
  const reached = agentAtPath(agent, path);
  return reached
    ? selectTools(
        reached.agent,
        pageTools.filter((t) => !isDebuggingTool(t)),
        path.length,
      ).map((t) => t.name)
    : [];
}

function withNote(content: ToolOutput['content']): ToolOutput['content'] {
  const first = content.findIndex((c) => c.type === 'text');
  if (first === -1) return [{ type: 'text', text: OUTCOME_UNKNOWN_NOTE }, ...content];
  return content.map((c, i) => (i === first && c.type === 'text' ? { ...c, text: `${c.text} ${OUTCOME_UNKNOWN_NOTE}` } : c));
}

function keyOf(identity: ToolIdentity): string {
  return JSON.stringify([identity.origin ?? '', identity.originalName]);
}

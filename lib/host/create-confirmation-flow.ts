/**
 * One tab's confirmation flow (docs/security.md, "Confirmation"): whether a call must ask the person first (the
 * policy, the grants, the tool's own annotations, judged by the frame that owns the tool), the questions open, and
 * what each answer does. A confirmation is matched by the host's own random id only, never by the model's call id.
 */
import type { ToolCall, ToolDescriptor, ToolOutput } from '../agent/types';
import type { TabToolEntry } from '../messaging/tab-tool-snapshot';
import type { ConfirmationAnswer, PendingConfirmation } from '../messaging/agent-messages';
import { hostOf } from '../shared/host-of';
import { webOriginOf } from '../shared/web-origin-of';
import { type GrantCaller, sameCaller } from '../storage/grant-caller';
import type { ToolGrant } from '../storage/settings';
import type { HostSettingsPort } from './agent-host-deps';
import type { ForcedQuestion } from '../messaging/client-call-request';
import { mayAlwaysAllow, needsConfirmation } from './needs-confirmation';
import { questionArguments } from './question-arguments';

/** Said to the model when the person pressed Deny. */
export const DECLINED_CALL_ERROR = (tool: string) =>
  `Error [cancelled]: The person declined to run ${tool}. Do not call it again unless they ask for it.`;

/** Said of a call whose confirmation was still open when the person pressed Stop. */
export const STOPPED_BEFORE_CONFIRMATION_ERROR = 'Error [cancelled]: stopped before the person answered.';

/** Who a tool is for the confirmation policy: its own frame's origin and its own WebMCP name. */
export interface ToolIdentity {
  origin?: string;
  originalName: string;
}

interface ConfirmationFlowDeps {
  settings: Pick<HostSettingsPort, 'read' | 'grantTool'>;
  /** Unguessable ids (crypto.randomUUID). */
  generateId: () => string;
  /** A question opened: the call's card shows it. */
  onAsking: (callId: string, prompt: string) => void;
  /** The open questions changed (one was answered, or closed because its call ended). */
  onChange: () => void;
}

export interface ConfirmationFlow {
  /**
   * Asks the person when the policy says so. Resolves `run` when the call may run, or the error the model reads
   * (declined, or stopped before an answer). `top` is the top page's URL; `awaiting` is called before asking.
   * `force` asks whatever the policy, grants and annotations say (the run's rules, create-run-guard.ts), with no
   * "Always" on offer and the arguments shown with the question. `requester` names the desktop agent that made the
   * call (lib/mcp-bridge): the question says so and shows the arguments. `caller` is whose grants count and who an
   * "Always" is stored for (lib/storage/grant-caller.ts); undefined for a caller that cannot be told apart from
   * others, which gets no grant and is offered no "Always". Arguments shown have what the schema marks secret
   * masked; the signal's abort closes the question (the call ended).
   */
  check(
    call: ToolCall,
    tool: TabToolEntry,
    identity: ToolIdentity,
    context: {
      top: string | undefined;
      signal: AbortSignal;
      awaiting: () => void;
      caller: GrantCaller | undefined;
      force?: ForcedQuestion;
      requester?: string;
    },
  ): Promise<'run' | ToolOutput>;
  /** Answers the open question with this id; any other id does nothing. */
  confirm(confirmationId: string, answer: ConfirmationAnswer): void;
  /** The open questions, as the panel shows them (secret arguments masked). */
  open(): PendingConfirmation[];
  /**
   * The clear arguments of the open question with this id, when it masked any: for the person's Reveal in that
   * question only. Undefined for any other id, a question that masked nothing, or one that is closed.
   */
  reveal(confirmationId: string): string | undefined;
  /** Ends every open question as stopped (the run ended). */
  stopAll(): void;
}

interface OpenConfirmation extends PendingConfirmation {
  resolve: (answer: ConfirmationAnswer | 'stopped') => void;
  /** The clear arguments, kept here until the person reveals them (question-arguments.ts). */
  clear?: string;
}

/** A question as the flow asks it. */
interface Question {
  origin?: string;
  prompt: string;
  allowAlways: boolean;
  input?: { shown: string; clear?: string };
  requester?: string;
}

/** Creates the flow. */
export function createConfirmationFlow(deps: ConfirmationFlowDeps): ConfirmationFlow {
  const confirmations = new Map<string, OpenConfirmation>();

  const ask = (call: ToolCall, question: Question, signal: AbortSignal) =>
    new Promise<ConfirmationAnswer | 'stopped'>((resolve) => {
      if (signal.aborted) return resolve('stopped');
      // The host's own id: a model that names its call id (or another call's) in a confirm intent answers nothing.
      const id = deps.generateId();
      // The call ended before an answer (Stop, a desktop agent that gave up, sharing stopped): its question goes
      // from the panel at once, so no Allow can be pressed on a call that no longer waits.
      const onAbort = () => {
        settle('stopped');
        deps.onChange();
      };
      const settle = (answer: ConfirmationAnswer | 'stopped') => {
        signal.removeEventListener('abort', onAbort);
        confirmations.delete(id);
        resolve(answer);
      };
      signal.addEventListener('abort', onAbort);
      confirmations.set(id, {
        id,
        callId: call.id,
        toolName: call.name,
        ...(question.origin ? { origin: question.origin } : {}),
        allowAlways: question.allowAlways,
        prompt: question.prompt,
        ...(question.input !== undefined ? { input: question.input.shown } : {}),
        ...(question.input?.clear !== undefined ? { masked: true, clear: question.input.clear } : {}),
        ...(question.requester !== undefined ? { requester: question.requester } : {}),
        resolve: settle,
      });
      deps.onAsking(call.id, question.prompt);
    });

  return {
    async check(call, tool, identity, { top: topUrl, signal, awaiting, caller, force, requester }) {
      // The tool's identity for the policy is (its frame's origin, its own name): a grant for the shop never covers
      // an ad frame's tool of the same name, and only the tool's own annotations can relax the policy for it.
      const top = webOriginOf(topUrl);
      const origin = identity.origin ?? top;
      const { confirmation, grants } = await deps.settings
        .read()
        .catch(() => ({ confirmation: 'non-read-only' as const, grants: [] as ToolGrant[] }));
      // Grants are per caller: the in-browser agent's "Always" never covers a desktop agent, nor one desktop agent's another.
      const granted =
        origin !== undefined &&
        caller !== undefined &&
        grants.some((g) => g.origin === origin && g.tool === identity.originalName && sameCaller(g.caller, caller));
      if (!force && !needsConfirmation(confirmation, tool.annotations, granted)) return 'run';
      const allowAlways = !force && caller !== undefined && webOriginOf(origin) !== undefined && mayAlwaysAllow(tool.annotations);
      awaiting();
      // What would go, with what the schema marks secret masked: shown when the question asks whatever the policy
      // says, and for every desktop agent's call (the person sees who asks, and what it would send).
      const input = force || requester ? questionArguments(call.input, tool.inputSchema) : undefined;
      const prompt = promptFor(call.name, origin, top, force ? force.reason : reasonOf(tool));
      const question: Question = {
        origin,
        prompt: requester ? `${requester} (desktop agent) asks: ${prompt}` : prompt,
        allowAlways,
        ...(input ? { input } : {}),
        ...(requester ? { requester } : {}),
      };
      const answer = await ask(call, question, signal);
      if (answer === 'deny') return errorOutput(DECLINED_CALL_ERROR(call.name));
      if (answer === 'stopped') return errorOutput(STOPPED_BEFORE_CONFIRMATION_ERROR);
      // "Always" is not on offer for a consequential tool; an answer that says it anyway counts as once.
      if (answer === 'allow-always' && allowAlways && origin && caller) {
        await deps.settings.grantTool(origin, identity.originalName, caller).catch(() => undefined);
      }
      return 'run';
    },
    confirm(confirmationId, answer) {
      confirmations.get(confirmationId)?.resolve(answer);
      deps.onChange();
    },
    open: () => [...confirmations.values()].map(({ resolve: _resolve, clear: _clear, ...c }) => c),
    reveal: (confirmationId) => confirmations.get(confirmationId)?.clear,
    stopAll() {
      for (const open of [...confirmations.values()]) open.resolve('stopped');
    },
  };
}

/** Why the policy asks about this tool. */
function reasonOf(tool: ToolDescriptor): string {
  return tool.annotations?.consequentialHint
    ? 'The site marks it as consequential: it asks every time.'
    : 'The site does not mark it as read-only.';
}

/** The question, in words: which tool, where (a frame, a sandboxed frame), and why it asks. */
function promptFor(name: string, origin: string | undefined, top: string | undefined, reason: string): string {
  const inside = top ? ` inside ${hostOf(top)}` : '';
  let where = origin ? ` on ${hostOf(origin)}` : '';
  if (origin && webOriginOf(origin) === undefined) where = ` in a sandboxed frame${inside}`;
  else if (origin && top && origin !== top) where += ` (a frame${inside})`;
  return `Allow ${name}${where}? ${reason}`;
}

function errorOutput(text: string): ToolOutput {
  return { content: [{ type: 'text', text }], isError: true };
}

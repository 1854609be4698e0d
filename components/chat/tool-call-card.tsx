import { useEffect, useRef } from 'preact/hooks';
import type { AgentPart, ToolOutput } from '../../lib/agent/types';
import type { ConfirmationAnswer, PendingConfirmation } from '../../lib/messaging/agent-messages';
import { maskToolPart } from '../../lib/transcript/mask-tool-part';
import { ConfirmActions } from '../shared/confirm-actions';
import { QuestionArguments, type SecretReveal } from '../shared/question-arguments';
import { TaskFlowsNote } from '../shared/task-flows-note';
import { MessageView } from './message-view';
import { toolStateWords } from './tool-state-words';

type ToolPart = Extract<AgentPart, { type: 'tool' }>;

interface ToolCallCardProps {
  part: ToolPart;
  /** Set when the host is waiting for the person's answer on this call. */
  confirmation?: PendingConfirmation;
  /** Answers the confirmation by its host-given id. */
  onConfirm?: (confirmationId: string, answer: ConfirmationAnswer) => void;
  confirmations?: PendingConfirmation[];
  /** Reveals a question's masked secret arguments, on the person's click. */
  reveal?: SecretReveal;
  /** The tab and site the call ran on, in a task across tabs. */
  place?: string | undefined;
  /** Where the nested calls of a sub-agent ran, by call id. */
  places?: ReadonlyMap<string, string> | undefined;
}

/**
 * One tool call: its name and state in words, input and output behind a disclosure (what the call's schema marks
 * secret masked), the confirmation question while it waits for the person, and a sub-agent's nested run under it.
 */
export function ToolCallCard({ part: asCalled, confirmation, onConfirm, confirmations, reveal, place, places }: ToolCallCardProps) {
  const part = maskToolPart(asCalled);
  const words = toolStateWords(part.state, part.error);
  const allow = useRef<HTMLButtonElement>(null);
  const asking = confirmation !== undefined;
  // A question appears: bring keyboard focus to it, unless the person is typing their next message.
  useEffect(() => {
    if (asking && document.activeElement?.tagName !== 'TEXTAREA') allow.current?.focus();
  }, [asking]);
  const output = part.output ? outputText(part.output) : undefined;
  return (
    <div class="tool-card" data-state={part.state}>
      <details>
        <summary>
          <span class="tool-icon" aria-hidden="true" />
          <span class="tool-name">{part.name}</span>
          {place && <span class="tool-place">on {place}</span>}
          <span class="tool-state">{words}</span>
        </summary>
        <div class="tool-body">
          <h4>Input</h4>
          <ScrollBlock label={`Input of ${part.name}`} text={formatJson(part.input)} />
          {output !== undefined && (
            <>
              <h4>Output</h4>
              <ScrollBlock label={`Output of ${part.name}`} text={output} />
            </>
          )}
          {part.error && (
            <>
              <h4>{part.state === 'cancelled' ? 'Why it was cancelled' : 'Error'}</h4>
              <ScrollBlock label={`Error of ${part.name}`} text={part.error} />
            </>
          )}
        </div>
      </details>
      {part.state === 'running' && part.prompt && (
        <p class="tool-waiting" role="status">
          {part.prompt}
        </p>
      )}
      {part.state === 'awaiting-confirmation' && part.prompt && (
        <fieldset class="confirm">
          <legend>{part.prompt}</legend>
          {confirmation && <QuestionArguments confirmation={confirmation} toolName={part.name} {...(reveal ? { reveal } : {})} />}
          {confirmation?.allowTask && <TaskFlowsNote flows={confirmation.allowTask} />}
          {confirmation && onConfirm && <ConfirmActions confirmation={confirmation} onConfirm={onConfirm} allowRef={allow} />}
        </fieldset>
      )}
      {part.agent && (
        <section class="subagent" aria-label={`Sub-agent ${part.agent.id}`}>
          <p class="subagent-title">Sub-agent {part.agent.id}</p>
          {part.agent.messages.map((m) => (
            <MessageView key={m.id} message={m} confirmations={confirmations ?? []} onConfirm={onConfirm} reveal={reveal} places={places} />
          ))}
        </section>
      )}
    </div>
  );
}

/** A block of call data; it scrolls when long, so it takes focus (keyboard scrolling) and has a name. */
function ScrollBlock({ label, text }: { label: string; text: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard (axe scrollable-region-focusable).
    <pre tabIndex={0} title={label}>
      {text}
    </pre>
  );
}

function formatJson(value: unknown): string {
  if (value === undefined) return '(none)';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Tools often answer with JSON text: indent it so it can be read. */
function prettyIfJson(text: string): string {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}

function outputText(output: ToolOutput): string {
  const texts = output.content.map((c) => {
    if (c.type === 'text') return prettyIfJson(c.text);
    if (c.type === 'image') return `[image, ${c.mimeType}]`;
    return c.resource.text ?? `[resource ${c.resource.uri}]`;
  });
  if (texts.length === 0 && output.structuredContent !== undefined) return formatJson(output.structuredContent);
  return texts.join('\n');
}

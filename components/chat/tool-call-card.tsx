import type { AgentPart, ToolOutput } from '../../lib/agent/types';
import type { ConfirmationAnswer, PendingConfirmation } from '../../lib/messaging/agent-messages';
import { MessageView } from './message-view';
import { toolStateWords } from './tool-state-words';

type ToolPart = Extract<AgentPart, { type: 'tool' }>;

export interface ToolCallCardProps {
  part: ToolPart;
  /** Set when the host is waiting for the person's answer on this call. */
  confirmation?: PendingConfirmation;
  onConfirm?: (callId: string, answer: ConfirmationAnswer) => void;
  confirmations?: PendingConfirmation[];
}

/**
 * One tool call: its name and state in words, input and output behind a disclosure, the confirmation question
 * while it waits for the person, and a sub-agent's nested run under it.
 */
export function ToolCallCard({ part, confirmation, onConfirm, confirmations }: ToolCallCardProps) {
  const words = toolStateWords(part.state);
  const output = part.output ? outputText(part.output) : undefined;
  // The <pre> blocks scroll when long: tabIndex lets a keyboard reach and scroll them.
  return (
    <div class="tool-card" data-state={part.state}>
      <details>
        <summary>
          <span class="tool-icon" aria-hidden="true" />
          <span class="tool-name">{part.name}</span>
          <span class="tool-state">{words}</span>
        </summary>
        <div class="tool-body">
          <h4>Input</h4>
          <pre tabIndex={0}>{formatJson(part.input)}</pre>
          {output !== undefined && (
            <>
              <h4>Output</h4>
              <pre tabIndex={0}>{output}</pre>
            </>
          )}
          {part.error && (
            <>
              <h4>{part.state === 'cancelled' ? 'Why it was cancelled' : 'Error'}</h4>
              <pre tabIndex={0}>{part.error}</pre>
            </>
          )}
        </div>
      </details>
      {part.state === 'awaiting-confirmation' && part.prompt && (
        <fieldset class="confirm">
          <legend>{part.prompt}</legend>
          {confirmation && onConfirm && (
            <div class="confirm-actions">
              <button type="button" class="primary" onClick={() => onConfirm(part.id, 'allow-once')}>
                Allow once
              </button>
              <button type="button" onClick={() => onConfirm(part.id, 'allow-always')}>
                Always on this site
              </button>
              <button type="button" class="danger" onClick={() => onConfirm(part.id, 'deny')}>
                Deny
              </button>
            </div>
          )}
        </fieldset>
      )}
      {part.agent && (
        <section class="subagent" aria-label={`Sub-agent ${part.agent.id}`}>
          <p class="subagent-title">Sub-agent {part.agent.id}</p>
          {part.agent.messages.map((m) => (
            <MessageView key={m.id} message={m} confirmations={confirmations ?? []} onConfirm={onConfirm} />
          ))}
        </section>
      )}
    </div>
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

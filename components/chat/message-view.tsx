import type { AgentMessage } from '../../lib/agent/types';
import type { ConfirmationAnswer, PendingConfirmation } from '../../lib/messaging/agent-messages';
import type { SecretReveal } from '../shared/question-arguments';
import { renderMarkdown } from './render-markdown';
import { ToolCallCard } from './tool-call-card';

interface MessageViewProps {
  message: AgentMessage;
  confirmations: PendingConfirmation[];
  onConfirm?: (callId: string, answer: ConfirmationAnswer) => void;
  /** Reveals a question's masked secret arguments, on the person's click. */
  reveal?: SecretReveal | undefined;
  /** Where each call of a task across tabs ran ("recipes.localhost · Pancakes"), by call id. */
  places?: ReadonlyMap<string, string> | undefined;
}

/** One turn: the person's text as typed; the agent's text as sanitised Markdown and its calls as cards. Reasoning is kept in the conversation but not shown. */
export function MessageView({ message, confirmations, onConfirm, reveal, places }: MessageViewProps) {
  if (message.role === 'user') {
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    return (
      <div class="message user">
        <span class="sr-only">You said: </span>
        <p class="user-text">{text}</p>
      </div>
    );
  }
  const visible = message.parts.filter((p) => p.type !== 'reasoning');
  if (visible.length === 0) return null;
  return (
    <div class="message assistant">
      {visible.map((part, i) => {
        if (part.type === 'text') return <div key={i} class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(part.text) }} />;
        if (part.type === 'tool')
          return (
            <ToolCallCard
              key={part.id}
              part={part}
              confirmation={confirmations.find((c) => c.callId === part.id)}
              confirmations={confirmations}
              onConfirm={onConfirm}
              reveal={reveal}
              place={places?.get(part.id)}
              places={places}
            />
          );
        return null;
      })}
    </div>
  );
}

import type { AgentMessage, AgentPart } from '../agent/types';

/**
 * The conversation a Retry runs on: everything up to the last user message, plus what the run after it finished
 * (up to and including its last finished tool call, done or failed), so the adapter resumes after that call instead of redoing
 * it. Text, reasoning and calls that came after are dropped: they are what is being retried.
 */
export function retryMessages(messages: AgentMessage[]): AgentMessage[] {
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user') {
      lastUser = i;
      break;
    }
  }
  if (lastUser === -1) return [];
  const kept = messages.slice(0, lastUser + 1);
  const after = messages.slice(lastUser + 1);
  let lastMessage = -1;
  let lastPart = -1;
  for (const [m, message] of after.entries()) {
    for (const [p, part] of message.parts.entries()) {
      if (isFinishedCall(part)) {
        lastMessage = m;
        lastPart = p;
      }
    }
  }
  if (lastMessage === -1) return kept;
  for (let m = 0; m < lastMessage; m++) kept.push(after[m]);
  const message = after[lastMessage];
  kept.push({ ...message, parts: message.parts.slice(0, lastPart + 1) });
  return kept;
}

function isFinishedCall(part: AgentPart): boolean {
  return part.type === 'tool' && (part.state === 'done' || part.state === 'error');
}

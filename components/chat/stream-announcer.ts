import type { AgentMessage } from '../../lib/agent/types';

/**
 * Decides what a polite live region should say while text streams: whole sentences as they complete (never a
 * word at a time, which a screen reader would stutter through), and the rest when the reply ends. Pure, so the
 * view only feeds it snapshots.
 */
export function createStreamAnnouncer() {
  let key = '';
  let said = 0;
  return (messages: AgentMessage[], running: boolean): string | undefined => {
    const last = messages.at(-1);
    if (last?.role !== 'assistant') return undefined;
    const index = last.parts.findLastIndex((p) => p.type === 'text');
    if (index === -1) return undefined;
    const part = last.parts[index] as { text: string };
    const partKey = `${last.id}:${index}`;
    if (partKey !== key) {
      key = partKey;
      said = 0;
    }
    const fresh = part.text.slice(said);
    const end = running ? lastSentenceEnd(fresh) : fresh.length;
    if (end <= 0) return undefined;
    said += end;
    const text = fresh.slice(0, end).trim();
    return text || undefined;
  };
}

function lastSentenceEnd(text: string): number {
  const match = /[\s\S]*[.!?:\n](?=\s|$)/.exec(text);
  return match ? match[0].length : 0;
}

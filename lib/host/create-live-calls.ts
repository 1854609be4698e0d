import type { AgentMessage } from '../agent/types';
import { applyLiveCalls, type LiveCall } from './apply-live-calls';

/**
 * The live states of a conversation's calls (awaiting the person, waiting for the page), kept beside the stored
 * conversation and never saved. The session owns them; the tab's calls (create-tab-calls.ts), its task's tabs'
 * calls (create-task.ts) and its run (create-tab-runs.ts) change them only through this.
 */
export interface LiveCalls {
  /** A call's live state changed: the panel hears it. */
  set(callId: string, call: LiveCall): void;
  /** A call ended: its live state goes, and the panel hears it. */
  end(callId: string): void;
  /** A call's state is now in the conversation itself: its live state goes without a word (the caller tells). */
  forget(callId: string): void;
  /** A run ended: every live state goes without a word (the caller tells). */
  clear(): void;
  /** A call's live state, if it has one. */
  state(callId: string): LiveCall | undefined;
  /** The conversation with the live states laid over its open calls (apply-live-calls.ts). */
  over(messages: AgentMessage[]): AgentMessage[];
}

/** Creates a conversation's live call states; `emit` tells the panel that what it shows changed. */
export function createLiveCalls(emit: () => void): LiveCalls {
  const live = new Map<string, LiveCall>();
  return {
    set(callId, call) {
      live.set(callId, call);
      emit();
    },
    end(callId) {
      live.delete(callId);
      emit();
    },
    forget: (callId) => void live.delete(callId),
    clear: () => live.clear(),
    state: (callId) => live.get(callId),
    over: (messages) => applyLiveCalls(messages, live),
  };
}

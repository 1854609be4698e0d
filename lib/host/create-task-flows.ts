/**
 * The crossings between sites the person allowed for one task (docs/security.md, "Tasks across tabs"): each is one
 * flow, from the origin whose data the conversation holds to the origin of the tool the data would go to. They live
 * in the conversation's memory only, never in storage, and end with it (New chat, the tab closing, a restart): an
 * "Allow for this task" never becomes an "Always".
 */
import type { TaskFlow } from '../messaging/task-tabs';

/** The flows allowed in one conversation. */
export interface TaskFlows {
  /** The person answered "Allow for this task" to a question that named these flows. */
  allow(flows: readonly TaskFlow[]): void;
  /** Whether what was read on `from` may go to a tool of `to` without asking. The same origin always may. */
  allows(from: string, to: string): boolean;
  /** Forgets every flow (the conversation ended: New chat, its tab closed). */
  clear(): void;
}

/** Creates an empty set of flows: nothing crosses unasked until the person allows it. */
export function createTaskFlows(): TaskFlows {
  const allowed = new Set<string>();
  const keyOf = (from: string, to: string) => JSON.stringify([from, to]);
  return {
    allow(flows) {
      for (const flow of flows) allowed.add(keyOf(flow.from, flow.to));
    },
    allows: (from, to) => from === to || allowed.has(keyOf(from, to)),
    clear: () => allowed.clear(),
  };
}

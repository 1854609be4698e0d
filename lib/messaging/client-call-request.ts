/**
 * A desktop agent's call as the desktop bridge (lib/mcp-bridge) hands it to the tab's session in the agent host
 * (lib/host/run-client-call.ts): the contract between the two, declared here so neither imports the other.
 */
import type { TabToolEntry } from './tab-tool-snapshot';
import type { TaskFlow } from './task-tabs';

/** Why the person is asked whatever the policy says (the question then shows the arguments, with no "Always"). */
export interface ForcedQuestion {
  reason: string;
  /**
   * The crossings between sites this call would make, when the only reason to ask is that the data would cross and
   * the conversation is a task of several tabs: the question then offers "Allow for this task" for exactly these
   * (docs/security.md, "Tasks across tabs"). Never set for a desktop agent's call.
   */
  flows?: TaskFlow[];
}

/** A desktop agent's call, as the MCP bridge hands it to the tab's session. */
export interface ClientCallRequest {
  /** The client's name, cleaned (the question and the timeline show it). */
  client: string;
  /** The top-level site the tool was shared from. */
  site: string;
  signal: AbortSignal;
  /** Ask whatever the policy says, and why (the client read another site's data, or an outcome went unknown). */
  force?: ForcedQuestion;
  /** The call now waits for the person's answer. */
  onAsking?: () => void;
  /**
   * The tool instance the client was listed and judged (`force`) by: when given, another instance under the name
   * (another frame's, another origin's) does not run.
   */
  shown?: Pick<TabToolEntry, 'frameId' | 'documentId' | 'origin' | 'originalName'>;
}

/**
 * A desktop agent's call as the desktop bridge (lib/mcp-bridge) hands it to the tab's session in the agent host
 * (lib/host/run-client-call.ts): the contract between the two, declared here so neither imports the other.
 */
import type { TabToolEntry } from './tab-tool-snapshot';

/** Why the person is asked whatever the policy says (the question then shows the arguments, with no "Always"). */
export interface ForcedQuestion {
  reason: string;
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

/**
 * The webmcp-evals file format (GoogleChromeLabs/webmcp-tools, `webmcp-evals/examples/*\/evals.json`), as this
 * extension reads it, plus one documented extension: `forbiddenCalls`. See docs/evals.md for the format and the
 * scoring rules.
 */

/** One turn of an eval's conversation. `model` turns and function turns seed the history before the last user turn. */
export type EvalMessage =
  | { role: 'user' | 'model'; type: 'message'; content: string }
  | { role: 'model'; type: 'functioncall'; name: string; arguments: Record<string, unknown> }
  | { role: 'user'; type: 'functionresponse'; name: string; response: unknown };

/** One call the agent is expected to make. */
export interface ExpectedCall {
  functionName: string;
  /** Argument expectations: values, nested objects (subset-matched) and `$` constraints. Absent or null: any. */
  arguments?: Record<string, unknown> | null;
  /** An expectation on the tool's result, with the same matching rules. */
  result?: unknown;
  /** Not required: a call that is made is matched normally, one that is not made is not a failure. */
  optional?: boolean;
}

/** A call, a group whose calls may come in any order, or a group whose calls come in order. */
export type ExpectedCallNode = ExpectedCall | { unordered: ExpectedCallNode[] } | { ordered: ExpectedCallNode[] };

/** One eval case. */
export interface EvalCase {
  name?: string;
  messages: EvalMessage[];
  /** The calls expected, in order. `null` or `[]`: the agent must call no tool. */
  expectedCall: ExpectedCallNode[] | null;
  /** This extension's addition: calls that must not happen at all, matched like expected calls. */
  forbiddenCalls?: ExpectedCall[];
}

/** A call the agent actually made, with the tool's result when there was one. */
export interface ActualCall {
  functionName: string;
  args: unknown;
  result?: unknown;
  /** The call's error code (`Error [code]: …`), when it failed. */
  errorCode?: string;
  /** The argument paths the call's schema marked secret (the tool part's `secretPaths`): masked in the report. */
  secretPaths?: string[][];
}

/** One line of a case's score: an expected call against the actual call it was matched with. */
export interface ScoreRow {
  expected: ExpectedCall | null;
  actual: ActualCall | null;
  outcome: 'pass' | 'fail';
  /** Why it failed, one sentence per difference ("query: expected to contain \"York\", got \"Paris\""). */
  differences: string[];
}

/** A scored case. */
export interface CaseScore {
  outcome: 'pass' | 'fail';
  rows: ScoreRow[];
  /** How many of the expected (required) calls were matched. */
  passed: number;
  required: number;
}

/**
 * The agent core's public surface: the adapter contract, the on-device loop and its parts. Pure TypeScript, no
 * browser APIs: it runs in the offscreen document, Firefox's background page, and Node.
 */
export type * from './types';
export type { CallFormat, ChatTurn, GenerateRequest, LocalProvider } from './local-provider';

export { runLocalAgent, LOCAL_LOOP_DEFAULTS, type LocalLoopOptions } from './run-local-agent';
export { LOCAL_AGENT_MESSAGES, LOCAL_AGENT_PROMPTS } from './local-agent-messages';
export { rankTools, tokenize, type RankToolsOptions } from './rank-tools';
export { compactSchema, cleanText } from './compact-schema';
export {
  parseToolCalls,
  type ParsedReply,
  type ParsedToolCall,
  type ToolCallFormat,
  type ToolLike,
} from './parse-tool-calls';
export { parsePythonCalls } from './parse-python-calls';
export { validateArgs, type ValidateArgsResult } from './validate-args';
export {
  reduceStreamPart,
  reduceRunState,
  initialRunState,
  isCancelled,
  setAwaitingConfirmation,
  STOPPED_CALL_ERROR,
  UNFINISHED_CALL_ERROR,
  type AgentRunState,
} from './reduce-stream-part';
export { TOOL_ERROR_CODES, formatToolError, isToolErrorCode, parseToolError, type ToolErrorCode } from './tool-error-codes';
export {
  buildHistory,
  callBlock,
  cutResult,
  dropOldestBlock,
  estimateTokens,
  finishedCall,
  flattenHistory,
  trimHistory,
  userBlock,
  type BuildHistoryOptions,
  type FinishedCall,
  type HistoryBlock,
} from './build-history';
export { buildSystemPrompt, exampleArguments, type SystemPromptOptions } from './build-system-prompt';
export { createLoopDetector, stableStringify, type LoopDetector, type LoopVerdict } from './detect-loop';
export { findCorrection, type Correction, type CorrectionInput } from './find-correction';
export { gistOfResult } from './gist-of-result';
export { toolOutputText } from './tool-output-text';
export { createScriptedProvider, hang, type ScriptedProvider, type ScriptedProviderOptions, type ScriptedReply } from './scripted-provider';
export {
  selectTools,
  delegateTools,
  delegateToolName,
  isDelegateToolName,
  subAgentFor,
  reachableToolNames,
  DELEGATE_TOOL_PREFIX,
  DELEGATE_INPUT_SCHEMA,
  MAX_DELEGATION_DEPTH,
  SUB_AGENT_ID_PATTERN,
} from './select-tools';
export { runSubAgent, SILENT_SUB_AGENT, type NestedPart, type RunAgentLoop } from './run-sub-agent';
export { createDelegation, type Delegation } from './create-delegation';

import type { EvalCase, EvalMessage, ExpectedCall, ExpectedCallNode } from './eval-types';
import { CONSTRAINT_OPERATORS, isConstraint, isKnownType, patternToRegExp } from './explain-mismatch';
import { MAX_NESTED_UNORDERED } from './score-eval-case';
import { errorMessage } from '../shared/error-message';
import { isRecord } from '../shared/is-record';

/** The most cases one file may hold: each runs the real agent on a reloaded page. */
const MAX_EVAL_CASES = 500;

type ParsedEvalFile = { ok: true; cases: EvalCase[] } | { ok: false; errors: string[] };

/**
 * Reads an eval file in the webmcp-evals format (a JSON array of cases; see docs/evals.md). Every problem is
 * reported with where it is (`case 3 ("Buy a hat") › expectedCall[1].arguments.query: …`), so an author can fix the
 * file; nothing is run from a file with errors. Invalid `$pattern`s and unknown operators are caught here rather
 * than in the middle of a run.
 */
export function parseEvalFile(text: string): ParsedEvalFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`The file is not valid JSON: ${errorMessage(error)}`] };
  }
  if (!Array.isArray(data)) return { ok: false, errors: ['The file must be a JSON array of eval cases.'] };
  if (data.length === 0) return { ok: false, errors: ['The file has no eval cases.'] };
  if (data.length > MAX_EVAL_CASES)
    return { ok: false, errors: [`The file has ${data.length} cases; at most ${MAX_EVAL_CASES} run at once.`] };
  const errors: string[] = [];
  const cases = data.map((item, index) => {
    const label = `case ${index + 1}${isRecord(item) && typeof item.name === 'string' ? ` (${JSON.stringify(item.name)})` : ''}`;
    const report = (path: string, message: string) => errors.push(`${label} › ${path}: ${message}`);
    return readCase(item, report);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, cases: cases as EvalCase[] };
}

type Report = (path: string, message: string) => void;

function readCase(item: unknown, report: Report): EvalCase | undefined {
  if (!isRecord(item)) {
    report('case', 'must be an object');
    return undefined;
  }
  if (item.name !== undefined && typeof item.name !== 'string') report('name', 'must be a string');
  const messages = Array.isArray(item.messages) ? item.messages : [];
  if (!Array.isArray(item.messages) || messages.length === 0) report('messages', 'must be a non-empty list');
  for (const [i, m] of messages.entries()) checkMessage(m, `messages[${i}]`, report);
  const last = messages.at(-1);
  if (isRecord(last) && !(last.role === 'user' && last.type === 'message')) report('messages', 'must end with a user message');
  if (item.expectedCall !== null) {
    if (!Array.isArray(item.expectedCall)) report('expectedCall', 'must be a list of expected calls, or null');
    else for (const [i, node] of item.expectedCall.entries()) checkNode(node, `expectedCall[${i}]`, report);
  }
  if (item.forbiddenCalls !== undefined) {
    if (!Array.isArray(item.forbiddenCalls)) report('forbiddenCalls', 'must be a list of calls');
    else for (const [i, call] of item.forbiddenCalls.entries()) checkCall(call, `forbiddenCalls[${i}]`, report);
  }
  return {
    ...(typeof item.name === 'string' ? { name: item.name } : {}),
    messages: messages as EvalMessage[],
    expectedCall: (item.expectedCall ?? null) as ExpectedCallNode[] | null,
    ...(Array.isArray(item.forbiddenCalls) ? { forbiddenCalls: item.forbiddenCalls as ExpectedCall[] } : {}),
  };
}

function checkMessage(m: unknown, path: string, report: Report): void {
  if (!isRecord(m)) {
    report(path, 'must be an object');
    return;
  }
  if (m.type === 'message') {
    if (m.role !== 'user' && m.role !== 'model') report(`${path}.role`, 'must be "user" or "model"');
    if (typeof m.content !== 'string') report(`${path}.content`, 'must be a string');
  } else if (m.type === 'functioncall') {
    if (m.role !== 'model') report(`${path}.role`, 'a function call comes from "model"');
    if (typeof m.name !== 'string' || m.name === '') report(`${path}.name`, 'must name the tool');
    if (m.arguments !== undefined && !isRecord(m.arguments)) report(`${path}.arguments`, 'must be an object');
  } else if (m.type === 'functionresponse') {
    if (m.role !== 'user') report(`${path}.role`, 'a function response comes from "user"');
    if (typeof m.name !== 'string' || m.name === '') report(`${path}.name`, 'must name the tool');
  } else {
    report(`${path}.type`, 'must be "message", "functioncall" or "functionresponse"');
  }
}

function checkNode(node: unknown, path: string, report: Report): void {
  if (!isRecord(node)) {
    report(path, 'must be an object');
    return;
  }
  for (const group of ['unordered', 'ordered'] as const) {
    if (!(group in node)) continue;
    const children = node[group];
    if (!Array.isArray(children) || children.length === 0) {
      report(`${path}.${group}`, 'must be a non-empty list');
      return;
    }
    const nested = children.some((c) => isRecord(c) && ('unordered' in c || 'ordered' in c));
    if (group === 'unordered' && nested && children.length > MAX_NESTED_UNORDERED) {
      report(`${path}.unordered`, `a group that holds groups may have at most ${MAX_NESTED_UNORDERED} children`);
    }
    for (const [i, child] of children.entries()) checkNode(child, `${path}.${group}[${i}]`, report);
    return;
  }
  checkCall(node, path, report);
}

function checkCall(call: unknown, path: string, report: Report): void {
  if (!isRecord(call)) {
    report(path, 'must be an object');
    return;
  }
  if (typeof call.functionName !== 'string' || call.functionName === '') report(`${path}.functionName`, 'must name the tool');
  if (call.arguments !== undefined && call.arguments !== null) {
    if (!isRecord(call.arguments)) report(`${path}.arguments`, 'must be an object or null');
    else checkExpectation(call.arguments, `${path}.arguments`, report);
  }
  if (call.result !== undefined) checkExpectation(call.result, `${path}.result`, report);
  if (call.optional !== undefined && typeof call.optional !== 'boolean') report(`${path}.optional`, 'must be true or false');
}

function checkExpectation(value: unknown, path: string, report: Report): void {
  if (isConstraint(value)) {
    for (const [operator, operand] of Object.entries(value)) {
      if (!(CONSTRAINT_OPERATORS as readonly string[]).includes(operator)) {
        report(path, `unknown constraint ${operator} (known: ${CONSTRAINT_OPERATORS.join(', ')})`);
      } else if (operator === '$pattern') {
        if (typeof operand !== 'string') report(path, '$pattern must be a string');
        else {
          try {
            patternToRegExp(operand);
          } catch (error) {
            report(path, `$pattern is not a valid regular expression: ${errorMessage(error)}`);
          }
        }
      } else if (operator === '$contains' && typeof operand !== 'string') {
        report(path, '$contains must be a string');
      } else if (['$gt', '$gte', '$lt', '$lte'].includes(operator) && typeof operand !== 'number') {
        report(path, `${operator} must be a number`);
      } else if (operator === '$type' && !isKnownType(operand)) {
        report(path, '$type must be one of string, number, boolean, array, object, null');
      }
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) checkExpectation(item, `${path}[${i}]`, report);
    return;
  }
  if (isRecord(value)) for (const [key, inner] of Object.entries(value)) checkExpectation(inner, `${path}.${key}`, report);
}

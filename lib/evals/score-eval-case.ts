import type { ActualCall, CaseScore, EvalCase, ExpectedCall, ExpectedCallNode, ScoreRow } from './eval-types';
import { explainMismatch, matchesArgument } from './explain-mismatch';

/** How many children an unordered group that holds groups may have: its orders are tried one by one. */
export const MAX_NESTED_UNORDERED = 8;

interface Match {
  /** Every required call in the node matched, and every actual call it consumed was expected. */
  ok: boolean;
  /** How many actual calls the node consumed. */
  consumed: number;
  rows: ScoreRow[];
}

/**
 * Scores one eval case against the calls the agent made, with webmcp-evals' rules (docs/evals.md § Scoring):
 * expected calls are matched in order; an `unordered` group's calls may come in any order (the best assignment
 * wins, so argument constraints that fit several calls are shared out correctly); an `ordered` group is a sequence
 * inside a group; an optional call that is not made is skipped; every actual call left over fails; and, this
 * extension's addition, an actual call that matches one of `forbiddenCalls` fails. The case passes when every row
 * passes.
 */
export function scoreEvalCase(evalCase: EvalCase, actual: readonly ActualCall[]): CaseScore {
  const expected = evalCase.expectedCall ?? [];
  const sequence = matchSequence(expected, actual, 0);
  const rows = [
    ...sequence.rows,
    ...actual.slice(sequence.consumed).map(
      (call): ScoreRow => ({
        expected: null,
        actual: call,
        outcome: 'fail',
        differences: [`${call.functionName} was not expected here`],
      }),
    ),
  ];
  for (const call of actual) {
    const forbidden = (evalCase.forbiddenCalls ?? []).find((f) => callMatches(f, call));
    if (forbidden) rows.push({ expected: null, actual: call, outcome: 'fail', differences: [`${call.functionName} is a forbidden call`] });
  }
  return {
    outcome: rows.every((row) => row.outcome === 'pass') ? 'pass' : 'fail',
    rows,
    passed: rows.filter((row) => row.outcome === 'pass' && row.expected !== null).length,
    required: countRequired(expected),
  };
}

/** The number of calls that must be made: optional calls do not count. */
export function countRequired(nodes: readonly ExpectedCallNode[]): number {
  return nodes.reduce((sum, node) => {
    if ('unordered' in node) return sum + countRequired(node.unordered);
    if ('ordered' in node) return sum + countRequired(node.ordered);
    return sum + (node.optional ? 0 : 1);
  }, 0);
}

/** The differences between one expected call and one actual call (empty when they match). */
function compareCall(expected: ExpectedCall, actual: ActualCall): string[] {
  if (expected.functionName !== actual.functionName) return [`called ${actual.functionName} instead of ${expected.functionName}`];
  const differences: string[] = [];
  if (expected.arguments != null) differences.push(...explainMismatch(expected.arguments, actual.args).map((d) => `arguments: ${d}`));
  if (expected.result !== undefined) differences.push(...explainMismatch(expected.result, actual.result, 'result'));
  return differences;
}

function callMatches(expected: ExpectedCall, actual: ActualCall): boolean {
  if (expected.functionName !== actual.functionName) return false;
  return expected.arguments == null || matchesArgument(expected.arguments, actual.args);
}

function row(expected: ExpectedCall | null, actual: ActualCall | null, differences: string[]): ScoreRow {
  return { expected, actual, outcome: differences.length === 0 ? 'pass' : 'fail', differences };
}

function matchNode(node: ExpectedCallNode, actual: readonly ActualCall[], start: number): Match {
  if ('unordered' in node) return matchUnordered(node.unordered, actual, start);
  if ('ordered' in node) return matchSequence(node.ordered, actual, start);
  const call = actual[start];
  if (!call) {
    return node.optional ? { ok: true, consumed: 0, rows: [] } : { ok: false, consumed: 0, rows: [row(node, null, ['not called'])] };
  }
  const differences = compareCall(node, call);
  // An optional call that was not made leaves the actual call to the next expectation.
  if (node.optional && differences.length > 0) return { ok: true, consumed: 0, rows: [] };
  return { ok: differences.length === 0, consumed: 1, rows: [row(node, call, differences)] };
}

function matchSequence(nodes: readonly ExpectedCallNode[], actual: readonly ActualCall[], start: number): Match {
  let consumed = 0;
  let ok = true;
  const rows: ScoreRow[] = [];
  for (const node of nodes) {
    const match = matchNode(node, actual, start + consumed);
    ok &&= match.ok;
    consumed += match.consumed;
    rows.push(...match.rows);
  }
  return { ok, consumed, rows };
}

function matchUnordered(nodes: readonly ExpectedCallNode[], actual: readonly ActualCall[], start: number): Match {
  const calls = nodes.filter((node): node is ExpectedCall => !('unordered' in node) && !('ordered' in node));
  return calls.length === nodes.length ? matchCallSet(calls, actual, start) : matchGroupOrders(nodes, actual, start);
}

/**
 * An unordered group of plain calls: the next calls, as many as the group can take, assigned to expectations by a
 * maximum bipartite matching. The span of calls taken shrinks past optional calls that were not made, so they do
 * not swallow the call after the group.
 */
function matchCallSet(nodes: readonly ExpectedCall[], actual: readonly ActualCall[], start: number): Match {
  const remaining = Math.max(0, actual.length - start);
  const required = nodes.filter((n) => !n.optional).length;
  const widest = Math.min(nodes.length, remaining);
  for (let width = widest; width >= Math.min(required, widest); width--) {
    const assignment = assign(nodes, actual.slice(start, start + width));
    const allRequired = nodes.every((n, i) => n.optional || assignment.byExpected[i] >= 0);
    const allUsed = assignment.byActual.every((e) => e >= 0);
    if (allRequired && allUsed) {
      return {
        ok: true,
        consumed: width,
        rows: assignment.byActual.map((e, j) => row(nodes[e], actual[start + j], [])),
      };
    }
  }
  // No clean assignment: report the widest span of calls, pairing each unmatched call with the closest unmatched expectation.
  const widestCalls = actual.slice(start, start + widest);
  const assignment = assign(nodes, widestCalls);
  const unmatched = nodes.filter((n, i) => assignment.byExpected[i] < 0 && !n.optional);
  const rows: ScoreRow[] = [];
  for (const [j, call] of widestCalls.entries()) {
    const e = assignment.byActual[j];
    if (e >= 0) {
      rows.push(row(nodes[e], call, []));
      continue;
    }
    const index = Math.max(
      0,
      unmatched.findIndex((n) => n.functionName === call.functionName),
    );
    const [expected] = unmatched.splice(index, 1);
    rows.push(
      expected ? row(expected, call, compareCall(expected, call)) : row(null, call, [`${call.functionName} was not expected here`]),
    );
  }
  for (const expected of unmatched) rows.push(row(expected, null, ['not called']));
  return { ok: false, consumed: widest, rows };
}

/** Kuhn's augmenting paths: which actual call each expectation takes (-1: none), and the reverse. */
function assign(nodes: readonly ExpectedCall[], calls: readonly ActualCall[]) {
  const byActual = calls.map(() => -1);
  const fits = nodes.map((node) => calls.map((call) => compareCall(node, call).length === 0));
  const augment = (e: number, seen: boolean[]): boolean => {
    for (let j = 0; j < calls.length; j++) {
      if (!fits[e][j] || seen[j]) continue;
      seen[j] = true;
      if (byActual[j] < 0 || augment(byActual[j], seen)) {
        byActual[j] = e;
        return true;
      }
    }
    return false;
  };
  for (let e = 0; e < nodes.length; e++)
    augment(
      e,
      calls.map(() => false),
    );
  const byExpected = nodes.map((_, e) => byActual.indexOf(e));
  return { byActual, byExpected };
}

/** An unordered group that holds groups: every order of its children is tried, and the one with most passes wins. */
function matchGroupOrders(nodes: readonly ExpectedCallNode[], actual: readonly ActualCall[], start: number): Match {
  if (nodes.length > MAX_NESTED_UNORDERED) {
    throw new RangeError(`An unordered group that holds groups may have at most ${MAX_NESTED_UNORDERED} children.`);
  }
  let best: (Match & { passes: number }) | undefined;
  const used = nodes.map(() => false);
  const walk = (consumed: number, ok: boolean, rows: ScoreRow[], depth: number) => {
    if (depth === nodes.length) {
      const passes = rows.filter((r) => r.outcome === 'pass').length;
      if (!best || (ok && !best.ok) || (ok === best.ok && passes > best.passes)) best = { ok, consumed, rows: [...rows], passes };
      return;
    }
    for (let i = 0; i < nodes.length; i++) {
      if (used[i]) continue;
      used[i] = true;
      const match = matchNode(nodes[i], actual, start + consumed);
      walk(consumed + match.consumed, ok && match.ok, [...rows, ...match.rows], depth + 1);
      used[i] = false;
    }
  };
  walk(0, true, [], 0);
  const { ok, consumed, rows } = best ?? { ok: true, consumed: 0, rows: [] };
  return { ok, consumed, rows };
}

import type { JSONSchema } from '../agent/types';
import { maskSecretPaths } from '../transcript/mask-secret-paths';
import { redactSecrets } from '../transcript/redact-secrets';
import { type SecretPath, secretPathsOf } from '../transcript/secret-paths-of';
import type { ActualCall, ExpectedCall } from './eval-types';
import type { EvalCaseResult } from './run-eval-cases';
import type { EvalReport } from './to-eval-report';

/** Which secrets to mask and redact (see redactEvalReport). */
interface EvalSecrets {
  values?: readonly string[];
  /** The page's tools now (the panel's), matched to a call by their page name. */
  tools?: readonly { name: string; originalName?: string; inputSchema: JSONSchema }[];
  /** The arguments the person marked secret, per model-facing tool name. */
  marked?: Readonly<Record<string, readonly string[]>>;
}

/**
 * What `$type` constraints name. A secret argument's expectation may be `{"$type": "string"}`: masked like any
 * other, but its word is not a secret, and redacting "string" everywhere would blank the report's own text.
 */
const TYPE_WORDS = new Set(['string', 'number', 'boolean', 'array', 'object', 'null']);

/**
 * An eval report that can leave the machine: in every call's arguments, expected and actual, the values at the
 * function's secret paths are masked, at any depth, and then redacted from everything else in the report (the
 * differences quote both sides; a final answer or a result may repeat them), as are `values` (the API key). A
 * function's secret paths are all of them: those each of its calls kept (the schema it was made under, however the
 * page has changed since), those of the page's tool of that name now, and the arguments the person marked secret.
 * The calls' own `secretPaths` are left out of the report.
 */
export function redactEvalReport(report: EvalReport, secrets: EvalSecrets = {}): EvalReport {
  const { cases, taken } = maskCases(report.cases, secrets);
  return redactSecrets({ ...report, cases }, { values: [...(secrets.values ?? []), ...taken] });
}

/**
 * The cases' results as the Evals view shows them while a run goes on, masked and redacted as in
 * {@link redactEvalReport}: the differences quote both sides' arguments, and a view must not show a secret either.
 */
export function redactEvalCases(cases: readonly EvalCaseResult[], secrets: EvalSecrets = {}): EvalCaseResult[] {
  const masked = maskCases(cases, secrets);
  return redactSecrets(masked.cases, { values: [...(secrets.values ?? []), ...masked.taken] });
}

/** The cases with every call's secret paths masked, and the values taken out (to redact them everywhere else). */
function maskCases(cases: readonly EvalCaseResult[], secrets: EvalSecrets): { cases: EvalCaseResult[]; taken: string[] } {
  const byFunction = new Map<string, SecretPath[]>();
  const add = (name: string, paths: readonly SecretPath[]) => byFunction.set(name, [...(byFunction.get(name) ?? []), ...paths]);
  for (const tool of secrets.tools ?? []) {
    add(tool.originalName ?? tool.name, secretPathsOf(tool.inputSchema));
    add(
      tool.originalName ?? tool.name,
      (secrets.marked?.[tool.name] ?? []).map((name) => [name]),
    );
  }
  for (const c of cases) {
    for (const call of [...c.actual, ...(c.score?.rows ?? []).flatMap((r) => (r.actual ? [r.actual] : []))])
      add(call.functionName, call.secretPaths ?? []);
  }
  const taken: string[] = [];
  const actual = (call: ActualCall): ActualCall => {
    const { secretPaths: _kept, ...rest } = call;
    const { masked, values } = maskSecretPaths(call.args, byFunction.get(call.functionName) ?? []);
    taken.push(...values);
    return { ...rest, args: masked };
  };
  const expected = (call: ExpectedCall | null): ExpectedCall | null => {
    if (!call || call.arguments == null) return call;
    const { masked, values } = maskSecretPaths(call.arguments, byFunction.get(call.functionName) ?? []);
    taken.push(...values.filter((v) => !TYPE_WORDS.has(v)));
    return { ...call, arguments: masked as Record<string, unknown> };
  };
  const masked = cases.map((c) => ({
    ...c,
    actual: c.actual.map(actual),
    ...(c.score
      ? {
          score: {
            ...c.score,
            rows: c.score.rows.map((r) => ({ ...r, expected: expected(r.expected), actual: r.actual && actual(r.actual) })),
          },
        }
      : {}),
  }));
  return { cases: masked, taken };
}

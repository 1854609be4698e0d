import { readOwn } from '../shared/read-own';
import { resolveLocalRef } from '../schema/resolve-pointer';
import { SCHEMA_LIMITS } from '../schema/schema-limits';
import { SUBSCHEMA_ROLES, subschemasIn } from '../schema/subschema-keywords';
import { isRecord } from '../shared/is-record';

/**
 * Where a secret sits in a tool's input: property names from the top, {@link ANY_ITEM} standing for every item of
 * an array (and every value of an object whose keys the schema does not name). `[]` is the whole input.
 */
export type SecretPath = string[];

/** The path segment that matches every array item and every object value. */
export const ANY_ITEM = '*';

/** Longest path followed: deeper secrets are masked where the walk stops (the whole subtree). */
const MAX_PATH_DEPTH = SCHEMA_LIMITS.depth;
/** Most paths kept: a schema with more secrets than this has its whole input masked. */
const MAX_PATHS = 200;
/** Most schema nodes visited: a schema whose `$ref`s fan out beyond this has its whole input masked. */
const MAX_STEPS = SCHEMA_LIMITS.nodes;

/**
 * The paths of a tool's input that its schema marks secret (`format: password` or `writeOnly: true`), at any
 * depth: through `properties`, `items`/`prefixItems`/`additionalItems`/`contains`, `additionalProperties`/
 * `patternProperties`/`unevaluated*`, `allOf`/`anyOf`/`oneOf`, `if`/`then`/`else`, `dependentSchemas`/`dependencies`,
 * and local `$ref`s (`#/$defs/…`, `#/definitions/…`, `#`).
 * A secret node's whole value is masked, so nothing under it is walked. The schema is the page's and untrusted:
 * the walk is bounded, survives cycles and throwing getters, and errs towards masking more (when it must give up,
 * the answer is the whole input, `[[]]`), because a value left in clear cannot be taken back from an export.
 */
export function secretPathsOf(schema: unknown): SecretPath[] {
  const root = isRecord(schema) ? schema : undefined;
  if (!root) return [];
  const holdsSecret = createSecretFinder(root);
  if (!holdsSecret(root)) return [];
  const paths: SecretPath[] = [];
  let steps = 0;
  let gaveUp = false;
  // `same` holds the nodes already met at this path (a `$ref` or `allOf` chain that loops without going deeper).
  const visit = (node: unknown, path: SecretPath, same: Set<object>) => {
    const record = isRecord(node) ? node : undefined;
    if (gaveUp || !record || same.has(record) || !holdsSecret(record)) return;
    if (++steps > MAX_STEPS || paths.length >= MAX_PATHS) {
      gaveUp = true;
      return;
    }
    if (isSecretNode(record) || path.length >= MAX_PATH_DEPTH) {
      paths.push(path);
      return;
    }
    const here = new Set(same).add(record);
    for (const child of sameLevelChildren(record, root)) visit(child, path, here);
    for (const [name, child] of namedChildren(record)) visit(child, [...path, name], new Set());
    for (const child of anyItemChildren(record)) visit(child, [...path, ANY_ITEM], new Set());
  };
  visit(root, [], new Set());
  return gaveUp ? [[]] : dedupe(paths);
}

/** Whether a schema node itself marks a secret. */
function isSecretNode(record: Record<string, unknown>): boolean {
  return readOwn(record, 'format') === 'password' || readOwn(record, 'writeOnly') === true;
}

/**
 * A memoized "does anything under this node (refs followed) mark a secret": the walk only enters such subtrees, so
 * a large schema with one password costs little. A node met again inside its own check (a cycle) counts as no
 * secret there; answers reached through such a cycle are not remembered, so a later check from elsewhere is exact.
 */
function createSecretFinder(root: Record<string, unknown>): (node: Record<string, unknown>) => boolean {
  const known = new WeakMap<object, boolean>();
  const open = new Set<object>();
  let budget = MAX_STEPS;
  const check = (node: unknown): { found: boolean; cut: boolean } => {
    if (!isRecord(node)) return { found: false, cut: false };
    const cached = known.get(node);
    if (cached !== undefined) return { found: cached, cut: false };
    if (open.has(node)) return { found: false, cut: true };
    // Out of budget: assume the worst.
    if (--budget < 0) return { found: true, cut: false };
    if (isSecretNode(node)) {
      known.set(node, true);
      return { found: true, cut: false };
    }
    open.add(node);
    let cut = false;
    let found = false;
    for (const child of allChildren(node, root)) {
      const result = check(child);
      cut ||= result.cut;
      if (result.found) {
        found = true;
        break;
      }
    }
    open.delete(node);
    if (found || !cut) known.set(node, found);
    return { found, cut: cut && !found };
  };
  return (node) => check(node).found;
}

function allChildren(record: Record<string, unknown>, root: Record<string, unknown>): unknown[] {
  return [...sameLevelChildren(record, root), ...namedChildren(record).map(([, child]) => child), ...anyItemChildren(record)];
}

/** The subschemas of the keywords of one role (lib/schema's SUBSCHEMA_ROLES), in the node's own order. */
function childrenOfRole(record: Record<string, unknown>, role: 'same' | 'any'): unknown[] {
  return Object.keys(record)
    .filter((key) => SUBSCHEMA_ROLES.get(key) === role)
    .flatMap((key) => subschemasIn(key, readOwn(record, key)).filter(isRecord));
}

/** Subschemas that describe the same value as the node: combinators, conditionals, and what a `$ref` points at. */
function sameLevelChildren(record: Record<string, unknown>, root: Record<string, unknown>): unknown[] {
  const out = childrenOfRole(record, 'same');
  const ref = readOwn(record, '$ref');
  if (typeof ref === 'string') out.push(resolveLocalRef(root, ref));
  return out;
}

/** Subschemas of named properties. */
function namedChildren(record: Record<string, unknown>): [string, unknown][] {
  const props = readOwn(record, 'properties');
  if (!isRecord(props)) return [];
  return Object.keys(props).map((name) => [name, readOwn(props, name)]);
}

/** Subschemas of values whose key or index the schema does not name: array items, additional and pattern properties. */
function anyItemChildren(record: Record<string, unknown>): unknown[] {
  return childrenOfRole(record, 'any');
}

function dedupe(paths: SecretPath[]): SecretPath[] {
  const seen = new Set<string>();
  return paths.filter((path) => {
    const key = JSON.stringify(path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

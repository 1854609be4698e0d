/**
 * How far the house walks a page's JSON Schema: one set of limits, read by every walker (lib/schema/README in
 * docs/architecture.md § JSON Schema). A page's schema is untrusted; each walk is bounded so that no schema, however
 * deep, cyclic or fanned out through `$ref`s, costs more than these, and so that every walker stops at the same
 * place: what the validator checks, what a provider is sent, what the export's mask covers and what the audit reads
 * are the same parts of the schema.
 */
export const SCHEMA_LIMITS = {
  /**
   * Deepest subschema nesting followed. A tool whose input schema is nested deeper is refused when it is read from
   * the page (read-tool-entry); walkers that meet deeper parts anyway (an output schema, an audit of a pasted
   * schema) treat them as "anything goes" (the validator), cut them (a provider's copy), or mask the whole subtree
   * (secret paths).
   */
  depth: 24,
  /** Most schema nodes visited in one walk, `$ref`s inlined: a "billion laughs" of references stops here. */
  nodes: 5_000,
  /** Longest `pattern` the validator compiles (longer ones are skipped as unsafe). */
  patternLength: 500,
} as const;

/**
 * How much of a schema each view shows a reader: a view shows less than a walk reads, by design (a small model reads
 * every token of the prompt's tool list each step). These never raise a walk's own bounds above.
 */
export const SCHEMA_VIEW_LIMITS = {
  /** The on-device prompt's compact copy of an input schema (compactSchema): levels and nodes. */
  promptDepth: 5,
  promptNodes: 400,
  /** The inspector's field list (readSchemaFields): levels and fields. */
  fieldDepth: 6,
  fields: 200,
  /** The one-line result shape the model reads beside a tool (summarizeOutputSchema). */
  returnsDepth: 3,
  /** The audit's per-parameter checks (names, descriptions): levels of nested objects read. */
  parameterDepth: 4,
} as const;

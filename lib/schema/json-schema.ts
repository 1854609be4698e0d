/** A JSON Schema object, as pages declare it. Untrusted: treat every field as possibly malformed. */
export type JSONSchema = { [key: string]: unknown };

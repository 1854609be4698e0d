import { maskSecretPaths } from '../transcript/mask-secret-paths';
import { redactSecrets } from '../transcript/redact-secrets';
import { secretPathsOf } from '../transcript/secret-paths-of';

/** A call's arguments as a question shows them. */
interface QuestionArgumentsText {
  /** The arguments as JSON text, with what the schema marks secret masked (and redacted wherever else it appears). */
  shown: string;
  /** The arguments in clear, only when something was masked: shown on the person's explicit Reveal, in that question only. */
  clear?: string;
}

/**
 * The arguments a question shows the person (docs/security.md § 6): the values the tool's schema marks secret
 * (`format: password`, `writeOnly`, at any depth) masked as `[redacted]`, whoever made the call, and the clear text
 * kept apart for the question's Reveal.
 *
 * @param input The call's arguments.
 * @param schema The input schema of the tool the question is about (the page's, untrusted: read by secretPathsOf).
 */
export function questionArguments(input: unknown, schema: unknown): QuestionArgumentsText {
  const { masked, values } = maskSecretPaths(input, secretPathsOf(schema));
  const shown = jsonText(redactSecrets(masked, { values }));
  // The same copy without redaction (cycles written the same way): equal to `shown` only when nothing was masked.
  const clear = jsonText(redactSecrets(input, { values: [] }));
  return shown === clear ? { shown } : { shown, clear };
}

/** The arguments as the person reads them. */
function jsonText(input: unknown): string {
  try {
    return JSON.stringify(input ?? {}, null, 2) ?? String(input);
  } catch {
    return String(input);
  }
}

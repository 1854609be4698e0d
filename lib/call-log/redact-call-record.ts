import { maskSecretPaths } from '../transcript/mask-secret-paths';
import { redactSecrets } from '../transcript/redact-secrets';
import type { SecretPath } from '../transcript/secret-paths-of';
import type { CallRecord } from '../messaging/call-record';

/**
 * A timeline record as it may be shown or copied: the input's values at `paths` masked, at any depth, and those
 * values redacted from the rest of the input and from the output (a page often echoes what it was sent). Ids and
 * names are left alone, so the record can still be found by them whatever a secret looks like.
 */
export function redactCallRecord(record: CallRecord, paths: readonly SecretPath[]): CallRecord {
  if (paths.length === 0) return record;
  const { masked, values } = maskSecretPaths(record.input, paths);
  const hide = <T>(value: T): T => redactSecrets(value, { values });
  return { ...record, input: hide(masked), ...(record.output !== undefined ? { output: hide(record.output) } : {}) };
}

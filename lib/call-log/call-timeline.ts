import { parseToolError } from '../agent/tool-error-codes';
import type { ToolOutput } from '../agent/types';
import { toolOutputText } from '../agent/tool-output-text';
import { maskSecretPaths } from '../transcript/mask-secret-paths';
import { redactSecrets } from '../transcript/redact-secrets';
import type { CallRecord } from '../messaging/call-record';

/** A call's record in progress. */
export interface CallInProgress {
  /** The call is parked on the person's Allow. */
  awaiting(): void;
  /** The call reached the page: the duration counts from here. */
  running(): void;
  /** The call ended. */
  end(output: ToolOutput): void;
}

/** Most calls a tab's timeline keeps: the oldest go first. */
export const MAX_TIMELINE = 200;
/** Most characters of one output kept in the timeline (the conversation keeps the capped output itself). */
export const MAX_RECORD_OUTPUT = 4_000;

/** A tab's call timeline. */
export interface CallTimeline {
  /** Records a call's start. */
  start(call: Omit<CallRecord, 'at' | 'state'>): CallInProgress;
  entries(): CallRecord[];
  clear(): void;
  /** Called after every change. */
  subscribe(listener: () => void): () => void;
}

/**
 * Creates a timeline. `now` is the clock (Date.now in the extension; a fake one in tests). Records are replaced,
 * never mutated, so a snapshot handed out stays as it was. A call's `secretPaths` are masked in the record as it is
 * stored (their values redacted from its output too): what the timeline hands out (to the panel's view and its
 * Copy) never holds a schema-marked secret in clear.
 */
export function createCallTimeline(now: () => number = Date.now): CallTimeline {
  let records: CallRecord[] = [];
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    start(call) {
      // Masked as it is stored: the clear values live only in this closure, to redact them from the output.
      const { masked, values } = maskSecretPaths(call.input, call.secretPaths ?? []);
      const hide = <T>(value: T): T => redactSecrets(value, { values });
      // Only the arguments and the output: ids and names stay as they are, whatever a secret's value looks like.
      let record: CallRecord = { ...call, input: hide(masked), at: now(), state: 'running' };
      let runningAt = record.at;
      records = [...records, record].slice(-MAX_TIMELINE);
      changed();
      const replace = (next: CallRecord) => {
        records = records.map((r) => (r === record ? next : r));
        record = next;
        changed();
      };
      return {
        awaiting: () => replace({ ...record, state: 'awaiting-confirmation' }),
        running: () => {
          runningAt = now();
          replace({ ...record, state: 'running' });
        },
        end: (output) => {
          // Redacted before it is cut to size, so no cut leaves the head of a secret behind.
          const text = hide(toolOutputText(output));
          const error = output.isError ? parseToolError(text) : undefined;
          replace({
            ...record,
            state: !output.isError ? 'done' : error?.code === 'cancelled' ? 'cancelled' : 'error',
            output: text.slice(0, MAX_RECORD_OUTPUT),
            ...(text.length > MAX_RECORD_OUTPUT ? { outputTruncated: true } : {}),
            ...(error?.code ? { errorCode: error.code } : {}),
            durationMs: Math.max(0, now() - runningAt),
          });
        },
      };
    },
    entries: () => records,
    clear() {
      records = [];
      changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

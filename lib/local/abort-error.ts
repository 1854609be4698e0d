/**
 * What a stopped load or generation rejects with: the signal's own reason, else an AbortError.
 *
 * @param signal The signal that aborted.
 */
export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The generation was stopped.', 'AbortError');
}

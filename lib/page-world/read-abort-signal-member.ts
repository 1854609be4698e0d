/**
 * WebIDL's conversion of a dictionary member of type `AbortSignal` (the `signal` of `registerTool` and
 * `executeTool`), with Chromium's TypeError message: absent (`undefined`) is no signal; anything that is not an
 * AbortSignal, `null` and look-alike objects included, is refused before the operation does anything. An
 * AbortSignal of another frame's realm is one, as it is for native: the check is the `aborted` getter's brand check,
 * not `instanceof`.
 */
import type { MemberPlace } from './read-usv-string-sequence';

/**
 * The member's signal, or undefined when it is absent. `abortedGetter` is the page realm's
 * `AbortSignal.prototype.aborted` getter, which throws for anything but an AbortSignal. Throws native's TypeError.
 */
export function readAbortSignalMember(
  value: unknown,
  place: MemberPlace,
  abortedGetter: (this: unknown) => boolean,
): AbortSignal | undefined {
  if (value === undefined) return undefined;
  try {
    abortedGetter.call(value);
    return value as AbortSignal;
  } catch {
    throw new TypeError(
      `Failed to execute '${place.operation}' on 'ModelContext': Failed to read the '${place.member}' property from '${place.dictionary}': Failed to convert value to 'AbortSignal'.`,
    );
  }
}

/**
 * The `aborted` getter of a realm's AbortSignal, found on AbortSignal.prototype (browsers) or further up its
 * prototype chain (DOM emulations built on Node's AbortSignal, such as happy-dom).
 */
export function abortedGetterOf(win: Window & typeof globalThis): (this: unknown) => boolean {
  for (let proto: object | null = win.AbortSignal.prototype; proto; proto = Object.getPrototypeOf(proto)) {
    const getter = Object.getOwnPropertyDescriptor(proto, 'aborted')?.get;
    if (getter) return getter as (this: unknown) => boolean;
  }
  throw new TypeError('This realm has no AbortSignal.prototype.aborted getter');
}

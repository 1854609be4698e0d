/**
 * A value the agent gives a declarative form's field, as the text native Chromium 156 makes of it (probed;
 * docs/webmcp-conformance.md): a string as it is, a boolean as "true" or "false", and a number as Chromium prints
 * the JSON number it arrives as. A JSON integer that fits in 32 bits is an integer there, printed in full; any
 * other number is a double, printed with six significant digits: fixed notation without trailing zeros, or, outside
 * 1e-6 to 1e6, exponential with an unpadded exponent ("2.14748e+9", "1.00000e-7"). Anything else (null, arrays,
 * objects) has no text: undefined.
 */
export function nativeValueText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  if (isInt32(value)) return String(value);
  // toPrecision(6) switches to exponential notation exactly where Chromium's six-digit printing does.
  const text = value.toPrecision(6);
  return text.includes('e') || !text.includes('.') ? text : text.replace(/\.?0+$/, '');
}

/** Whether a JSON number arrives in Chromium as an integer (a checkbox takes only those): an int32. */
export function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff;
}

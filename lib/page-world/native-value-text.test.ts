import { describe, expect, it } from 'vitest';
import { isInt32, nativeValueText } from './native-value-text';

describe('nativeValueText', () => {
  it('prints numbers as Chromium 156 does: int32 integers in full, any other with six significant digits', () => {
    // Each pair was read back from a text field native Chromium 156 filled with the number.
    const table: [number, string][] = [
      [0, '0'],
      [-3, '-3'],
      [123456789, '123456789'],
      [2147483647, '2147483647'],
      [-2147483648, '-2147483648'],
      [2147483648, '2.14748e+9'],
      [-2147483649, '-2.14748e+9'],
      [1e10, '1.00000e+10'],
      [2 ** 53, '9.00720e+15'],
      [1e21, '1.00000e+21'],
      [1e100, '1.00000e+100'],
      [1.7976931348623157e308, '1.79769e+308'],
      [5e-324, '4.94066e-324'],
      [2.5, '2.5'],
      [0.1, '0.1'],
      [0.1 + 0.2, '0.3'],
      [1 / 3, '0.333333'],
      [2 / 3, '0.666667'],
      [1234.5678, '1234.57'],
      [123456.7, '123457'],
      [100000.5, '100001'],
      [999999.5, '1.00000e+6'],
      [7.12345678, '7.12346'],
      [0.000001, '0.000001'],
      [0.0000125, '0.0000125'],
      [0.00001234567, '0.0000123457'],
      [1e-7, '1.00000e-7'],
    ];
    expect(table.map(([value]) => nativeValueText(value))).toEqual(table.map(([, text]) => text));
  });

  it('keeps strings, writes booleans as words, and has no text for anything else', () => {
    expect([' a\n', '', true, false].map(nativeValueText)).toEqual([' a\n', '', 'true', 'false']);
    expect([null, undefined, [], ['1'], {}, Number.NaN, Number.POSITIVE_INFINITY].map(nativeValueText)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('isInt32', () => {
  it('is true for integers that fit in 32 signed bits only', () => {
    expect([0, -0x80000000, 0x7fffffff, 0x80000000, -0x80000001, 1.5, 1e21].map(isInt32)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});

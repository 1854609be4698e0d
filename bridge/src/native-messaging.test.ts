import { describe, expect, it } from 'vitest';
import { createLineReader, createNativeMessageReader, encodeNativeMessage, MAX_TO_BROWSER_BYTES } from './native-messaging.js';

describe('native messaging framing', () => {
  it('frames a message as its UTF-8 length (32-bit little-endian) and its JSON', () => {
    const frame = encodeNativeMessage({ text: 'café' });
    expect(frame.readUInt32LE(0)).toBe(frame.length - 4);
    expect(JSON.parse(frame.subarray(4).toString('utf8'))).toEqual({ text: 'café' });
  });

  it('refuses a message over the browser’s 1 MB limit instead of sending what Chrome would drop', () => {
    expect(() => encodeNativeMessage({ text: 'x'.repeat(MAX_TO_BROWSER_BYTES) })).toThrow(RangeError);
  });

  it('reads messages split across chunks and several in one chunk, in order', () => {
    const seen: unknown[] = [];
    const read = createNativeMessageReader(
      (m) => seen.push(m),
      () => seen.push('error'),
    );
    const both = Buffer.concat([encodeNativeMessage({ n: 1 }), encodeNativeMessage({ n: 2 })]);
    for (const byte of both) read(Buffer.from([byte]));
    read(Buffer.concat([encodeNativeMessage({ n: 3 }), encodeNativeMessage({ n: 4 })]));
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });

  it('stops reading at a length past 64 MiB or a body that is not JSON', () => {
    const errors: string[] = [];
    const seen: unknown[] = [];
    const huge = Buffer.alloc(4);
    huge.writeUInt32LE(0xffffffff, 0);
    const read = createNativeMessageReader(
      (m) => seen.push(m),
      (e) => errors.push(e.name),
    );
    read(huge);
    read(encodeNativeMessage({ after: true }));
    expect(errors).toEqual(['RangeError']);
    expect(seen).toEqual([]);

    const bad = Buffer.from('not json');
    const header = Buffer.alloc(4);
    header.writeUInt32LE(bad.length, 0);
    const read2 = createNativeMessageReader(
      (m) => seen.push(m),
      (e) => errors.push(e.name),
    );
    read2(Buffer.concat([header, bad]));
    expect(errors).toEqual(['RangeError', 'SyntaxError']);
  });

  it('reads lines of JSON, skips the ones that are not, and stops at a line that is too long', () => {
    const seen: unknown[] = [];
    let tooLong = 0;
    const read = createLineReader((m) => seen.push(m), { maxLineBytes: 16, onTooLong: () => tooLong++ });
    read(Buffer.from('{"a":1}\nnope\n{"b"'));
    read(Buffer.from(':2}\n'));
    read(Buffer.from('x'.repeat(17)));
    read(Buffer.from('\n{"c":3}\n'));
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
    expect(tooLong).toBe(1);
  });
});

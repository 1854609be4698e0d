/** Longest text split: past this a tool's or a request's text says nothing the ranker needs. */
const MAX_TEXT = 4000;

/** What a character is to the split. Letter: a letter outside ASCII (no case rules, only the letter/digit boundary). */
const Kind = { Other: 0, Lower: 1, Upper: 2, Digit: 3, Letter: 4, Number: 5 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** Kinds of non-ASCII code points seen, so each is classified by a Unicode regex once. */
const kinds = new Map<number, Kind>();
const LETTER = /\p{L}/u;
const NUMBER = /\p{N}/u;

function kindOf(code: number): Kind {
  if (code < 128) {
    if (code >= 97 && code <= 122) return Kind.Lower;
    if (code >= 65 && code <= 90) return Kind.Upper;
    if (code >= 48 && code <= 57) return Kind.Digit;
    return Kind.Other;
  }
  let kind = kinds.get(code);
  if (kind === undefined) {
    const char = String.fromCodePoint(code);
    kind = LETTER.test(char) ? Kind.Letter : NUMBER.test(char) ? Kind.Number : Kind.Other;
    if (kinds.size < 10_000) kinds.set(code, kind);
  }
  return kind;
}

const isLetter = (kind: Kind) => kind === Kind.Lower || kind === Kind.Upper || kind === Kind.Letter;
const isDigit = (kind: Kind) => kind === Kind.Digit || kind === Kind.Number;

/**
 * The words of a text, lower-cased, in order: split on anything but letters and digits (Unicode), between a
 * lower-case letter or digit and a capital (`addToCart`), before the last capital of a run followed by a lower-case
 * letter (`DOMComponents` → `dom`, `components`), and between letters and digits (`door2`). Only the first
 * 4,000 characters are read.
 *
 * One pass over the characters, no regular expression per text: the ranker splits every tool's text when it
 * first meets a task's tools, hundreds at once (bench/hundreds-of-tools.bench.ts).
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  const end = Math.min(text.length, MAX_TEXT);
  let start = -1;
  let prev: Kind = Kind.Other;
  let i = 0;
  while (i < end) {
    const code = text.codePointAt(i) ?? 0;
    const width = code > 0xffff ? 2 : 1;
    const kind = kindOf(code);
    if (kind === Kind.Other) {
      if (start !== -1) out.push(text.slice(start, i).toLowerCase());
      start = -1;
    } else if (start === -1) {
      start = i;
    } else if (splitsBefore(prev, kind, i + width < end ? kindOf(text.codePointAt(i + width) ?? 0) : Kind.Other)) {
      out.push(text.slice(start, i).toLowerCase());
      start = i;
    }
    prev = kind;
    i += width;
  }
  if (start !== -1) out.push(text.slice(start, end).toLowerCase());
  return out;
}

/** Whether a word boundary falls between a character of kind `prev` and one of kind `kind` (followed by `next`). */
function splitsBefore(prev: Kind, kind: Kind, next: Kind): boolean {
  if (kind === Kind.Upper) {
    if (prev === Kind.Lower || prev === Kind.Digit) return true;
    if (prev === Kind.Upper && next === Kind.Lower) return true;
  }
  return (isLetter(prev) && isDigit(kind)) || (isDigit(prev) && isLetter(kind));
}

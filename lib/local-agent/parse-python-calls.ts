/** A Python call as LFM2 and friends write it. */
interface PythonCall {
  name: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
}

/**
 * Parses `[f(a="x", b=2), g()]` or `f(a="x")`: Python literals (strings in either quote, numbers, True/False/None,
 * lists, tuples, dicts). Returns null for anything else.
 */
export function parsePythonCalls(src: string): PythonCall[] | null {
  const p = new PythonReader(src.trim());
  try {
    const calls: PythonCall[] = [];
    const bracketed = p.eat('[');
    do {
      if (bracketed && p.peek() === ']') break;
      calls.push(p.call());
    } while (p.eat(','));
    if (bracketed && !p.eat(']')) return null;
    p.skipSpace();
    if (!p.done()) return null;
    return calls.length ? calls : null;
  } catch {
    return null;
  }
}

class PythonReader {
  private i = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }
  skipSpace(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }
  peek(): string {
    this.skipSpace();
    return this.s[this.i] ?? '';
  }
  eat(ch: string): boolean {
    if (this.peek() === ch) {
      this.i++;
      return true;
    }
    return false;
  }
  expect(ch: string): void {
    if (!this.eat(ch)) throw new SyntaxError(`expected ${ch}`);
  }
  ident(): string {
    this.skipSpace();
    const m = /^[A-Za-z_][\w]*(?:[.-][A-Za-z_][\w]*)*/.exec(this.s.slice(this.i, this.i + 200));
    if (!m) throw new SyntaxError('expected a name');
    this.i += m[0].length;
    return m[0];
  }
  call(): PythonCall {
    const name = this.ident();
    this.expect('(');
    const args: unknown[] = [];
    const kwargs: Record<string, unknown> = {};
    while (this.peek() !== ')') {
      const save = this.i;
      const key = /^\s*([A-Za-z_]\w*)\s*=(?!=)/.exec(this.s.slice(this.i, this.i + 200));
      if (key) {
        this.i = save + key[0].length;
        kwargs[key[1]] = this.value();
      } else {
        if (Object.keys(kwargs).length) throw new SyntaxError('positional after keyword');
        args.push(this.value());
      }
      if (!this.eat(',')) break;
    }
    this.expect(')');
    return { name, args, kwargs };
  }
  value(): unknown {
    if (++this.depth > 64) throw new SyntaxError('too deep');
    try {
      const ch = this.peek();
      if (ch === '"' || ch === "'") return this.string();
      if (ch === '[' || ch === '(') return this.list(ch === '[' ? ']' : ')');
      if (ch === '{') return this.dict();
      const num = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(this.s.slice(this.i, this.i + 64));
      if (num) {
        this.i += num[0].length;
        return Number(num[0]);
      }
      const word = this.ident();
      if (word === 'True' || word === 'true') return true;
      if (word === 'False' || word === 'false') return false;
      if (word === 'None' || word === 'null') return null;
      throw new SyntaxError(`unexpected ${word}`);
    } finally {
      this.depth--;
    }
  }
  string(): string {
    const quote = this.s[this.i];
    const triple = this.s.startsWith(quote.repeat(3), this.i);
    const delim = triple ? quote.repeat(3) : quote;
    this.i += delim.length;
    let out = '';
    while (this.i < this.s.length) {
      if (this.s.startsWith(delim, this.i)) {
        this.i += delim.length;
        return out;
      }
      const ch = this.s[this.i++];
      if (ch === '\\' && this.i < this.s.length) {
        const next = this.s[this.i++];
        const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };
        if (next === 'u' && /^[0-9a-fA-F]{4}/.test(this.s.slice(this.i, this.i + 4))) {
          out += String.fromCharCode(Number.parseInt(this.s.slice(this.i, this.i + 4), 16));
          this.i += 4;
        } else out += escapes[next] ?? `\\${next}`;
      } else out += ch;
    }
    throw new SyntaxError('unterminated string');
  }
  list(close: string): unknown[] {
    this.i++;
    const items: unknown[] = [];
    while (this.peek() !== close) {
      items.push(this.value());
      if (!this.eat(',')) break;
    }
    this.expect(close);
    return items;
  }
  dict(): Record<string, unknown> {
    this.i++;
    const out: Record<string, unknown> = {};
    while (this.peek() !== '}') {
      const key = this.value();
      this.expect(':');
      out[String(key)] = this.value();
      if (!this.eat(',')) break;
    }
    this.expect('}');
    return out;
  }
}

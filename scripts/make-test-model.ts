/**
 * The scripted test model: a tiny decoder-only ONNX model with a real byte-level tokenizer and a Qwen/Hermes-style
 * chat template, whose "weights" make it say chosen replies. It runs through the real transformers.js path
 * (AutoTokenizer, apply_chat_template with tools, AutoModelForCausalLM, generate with past_key_values, streamer),
 * in Node (onnxruntime-node) and in the browser (onnxruntime-web), so that path can be tested without a 0.5 GB model.
 *
 * How it decides what to say. The model reads the "pending input": every token since the previous assistant turn's
 * header (`<|im_start|>assistant`), i.e. the turns the coming reply answers. Among those it picks, highest first:
 *   1. a trigger (a word the script lists; it becomes one token) → that trigger's reply;
 *   2. a `</tool_response>` (a tool result came back) → `afterToolResult`;
 *   3. otherwise → `reply`.
 * It then emits that reply token by token, counting from the start of the current assistant turn, and ends with
 * `<|im_end|>` — unless the reply is marked `loop`, which repeats forever (for Stop and timeout tests).
 *
 * How it works. One "attention layer" whose KV cache stores, per token: [marker priority, assistant-turn count,
 * position, is-assistant-header] as key and [reply mode, token id, 0, 0] as value. Each new position finds the best
 * marker among pending cached tokens (ArgMax), and its offset from the latest assistant header, then looks the next
 * token up in a reply table. The cache is the only memory, so a generation that continues from a reused cache only
 * works if the cache is right: tests of KV reuse can fail.
 *
 * CLI: `tsx scripts/make-test-model.ts [outDir] [script.json]` (default outDir tests/model/generated/test-model).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { onnx as Onnx } from 'onnx-proto';

// onnx-proto is CommonJS without named-export hints for Node's ESM loader.
const { onnx } = createRequire(import.meta.url)('onnx-proto') as { onnx: typeof Onnx };

/** What the scripted model says. Replies are plain text and may contain the special tokens of the vocabulary. */
export interface TestModelScript {
  /** The reply when the pending input is a user message (no tool result, no trigger). */
  reply: string;
  /** The reply when the pending input holds a tool result. */
  afterToolResult: string;
  /** Words that, anywhere in the pending input, select their own reply. Each word becomes one token. */
  triggers?: { word: string; reply: string; loop?: boolean }[];
  /** Context length written to config.json (max_position_embeddings). */
  contextTokens?: number;
  /**
   * Whose chat template and special tokens the model has (default 'qwen3'). The replies must then be written in that
   * family's call format, as the real model would write them.
   */
  family?: TestModelFamily;
}

/** The chat-template families the test model can impersonate: one per call format the catalog uses. */
export type TestModelFamily = 'qwen3' | 'qwen3.5' | 'lfm';

/** The default script: call a tool, then answer from its result; "ramble" makes it talk until stopped. */
export const defaultTestModelScript: TestModelScript = {
  reply: '<tool_call>\n{"name": "get_page_title", "arguments": {}}\n</tool_call>',
  afterToolResult: 'The page title is in the tool result above.',
  triggers: [{ word: 'ramble', reply: 'and so on, ', loop: true }],
  contextTokens: 4096,
};

/** The special tokens of the vocabulary, in id order after the 256 byte tokens. */
export const TEST_MODEL_SPECIAL_TOKENS = [
  '<|endoftext|>',
  '<|im_start|>',
  '<|im_end|>',
  '<tool_call>',
  '</tool_call>',
  '<tool_response>',
  '</tool_response>',
  '<think>',
  '</think>',
  // LFM2/2.5/3's own markers (their templates also use <|im_start|>/<|im_end|>).
  '<|startoftext|>',
  '<|tool_list_start|>',
  '<|tool_list_end|>',
  '<|tool_call_start|>',
  '<|tool_call_end|>',
  '<|tool_response_start|>',
  '<|tool_response_end|>',
] as const;

const BYTE_TOKENS = 256;
const ID = Object.fromEntries(TEST_MODEL_SPECIAL_TOKENS.map((t, i) => [t, BYTE_TOKENS + i])) as Record<
  (typeof TEST_MODEL_SPECIAL_TOKENS)[number],
  number
>;
/** Tokens between an assistant header's "a" and the first reply token: "ssistant\n" (the prompt's last token). */
const HEADER_TAIL = 'assistant\n'.length - 1;
/**
 * Qwen3.5's generation prompt with thinking off adds an empty thinking block after the header:
 * `<think>`, "\n", "\n", `</think>`, "\n", "\n" (six tokens) before the reply.
 */
const EMPTY_THINK_TOKENS = 6;
/** Logit of the scripted token; every other token gets 0, so greedy and sampling agree in practice. */
const LOGIT = 40;

/** Qwen2.5-style template (Hermes tool format), trimmed to what the loop uses. */
export const TEST_MODEL_CHAT_TEMPLATE = [
  '{%- if tools %}',
  "{{- '<|im_start|>system\\n' }}",
  "{%- if messages[0].role == 'system' %}{{- messages[0].content + '\\n\\n' }}{%- endif %}",
  '{{- "# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}',
  '{%- for tool in tools %}{{- "\\n" }}{{- tool | tojson }}{%- endfor %}',
  '{{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n</tool_call><|im_end|>\\n" }}',
  "{%- elif messages[0].role == 'system' %}",
  "{{- '<|im_start|>system\\n' + messages[0].content + '<|im_end|>\\n' }}",
  '{%- endif %}',
  '{%- for message in messages %}',
  "{%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}",
  "{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}",
  "{%- elif message.role == 'assistant' %}",
  "{{- '<|im_start|>assistant' }}",
  "{%- if message.content %}{{- '\\n' + message.content }}{%- endif %}",
  '{%- if message.tool_calls %}{%- for tool_call in message.tool_calls %}',
  '{%- if tool_call.function is defined %}{%- set tool_call = tool_call.function %}{%- endif %}',
  '{{- \'\\n<tool_call>\\n{"name": "\' + tool_call.name + \'", "arguments": \' }}{{- tool_call.arguments | tojson }}{{- \'}\\n</tool_call>\' }}',
  '{%- endfor %}{%- endif %}',
  "{{- '<|im_end|>\\n' }}",
  "{%- elif message.role == 'tool' %}",
  "{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}{{- '<|im_start|>user' }}{%- endif %}",
  "{{- '\\n<tool_response>\\n' + message.content + '\\n</tool_response>' }}",
  "{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}{{- '<|im_end|>\\n' }}{%- endif %}",
  '{%- endif %}',
  '{%- endfor %}',
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}",
].join('');

/**
 * Qwen3.5-style template (written for this test model after the structure of Qwen3.5's template, like Qwen3-Coder's):
 * the tool list as JSON lines in <tools> before the system text; calls as
 * `<tool_call>\n<function=NAME>\n<parameter=KEY>\nVALUE\n</parameter>\n</function>\n</tool_call>` (strings raw,
 * other values as JSON); consecutive tool results in one user turn, each in <tool_response>; with thinking off, the
 * generation prompt holds an empty thinking block, and assistant turns after the last user message keep theirs (so
 * the steps of one turn extend each other; a new user message drops them from earlier turns).
 */
export const TEST_MODEL_QWEN35_TEMPLATE = [
  "{%- set sys = messages[0].content if messages and messages[0].role == 'system' else '' %}",
  '{%- set ns = namespace(last_query=-1) %}',
  "{%- for message in messages %}{%- if message.role == 'user' %}{%- set ns.last_query = loop.index0 %}{%- endif %}{%- endfor %}",
  '{%- if tools %}',
  "{{- '<|im_start|>system\n# Tools\n\nYou have access to the following functions:\n\n<tools>' }}",
  "{%- for tool in tools %}{{- '\n' + (tool | tojson) }}{%- endfor %}",
  "{{- '\n</tools>\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n</function>\n</tool_call>' }}",
  "{%- if sys %}{{- '\n\n' + sys }}{%- endif %}",
  "{{- '<|im_end|>\n' }}",
  "{%- elif sys %}{{- '<|im_start|>system\n' + sys + '<|im_end|>\n' }}{%- endif %}",
  '{%- for message in messages %}',
  "{%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}",
  "{{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' }}",
  "{%- elif message.role == 'assistant' %}",
  "{{- '<|im_start|>assistant\n' }}",
  // Steps after the last user message keep their (here empty) thinking block, as the generation prompt wrote it.
  "{%- if loop.index0 > ns.last_query %}{{- '<think>\n\n</think>\n\n' }}{%- endif %}",
  "{{- message.content or '' }}",
  '{%- if message.tool_calls %}{%- for tool_call in message.tool_calls %}',
  '{%- if tool_call.function is defined %}{%- set tool_call = tool_call.function %}{%- endif %}',
  "{%- if loop.first and message.content %}{{- '\n\n' }}{%- elif not loop.first %}{{- '\n' }}{%- endif %}",
  "{{- '<tool_call>\n<function=' + tool_call.name + '>\n' }}",
  '{%- for key, value in tool_call.arguments | items %}',
  "{{- '<parameter=' + key + '>\n' }}",
  '{%- if value is string %}{{- value }}{%- else %}{{- value | tojson }}{%- endif %}',
  "{{- '\n</parameter>\n' }}",
  '{%- endfor %}',
  "{{- '</function>\n</tool_call>' }}",
  '{%- endfor %}{%- endif %}',
  "{{- '<|im_end|>\n' }}",
  "{%- elif message.role == 'tool' %}",
  "{%- if loop.first or messages[loop.index0 - 1].role != 'tool' %}{{- '<|im_start|>user' }}{%- endif %}",
  "{{- '\n<tool_response>\n' + message.content + '\n</tool_response>' }}",
  "{%- if loop.last or messages[loop.index0 + 1].role != 'tool' %}{{- '<|im_end|>\n' }}{%- endif %}",
  '{%- endif %}',
  '{%- endfor %}',
  '{%- if add_generation_prompt %}',
  "{{- '<|im_start|>assistant\n' }}",
  "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\n\n</think>\n\n' }}{%- endif %}",
  '{%- endif %}',
].join('');

/**
 * LFM2/2.5/3-style template (written for this test model after the structure of Liquid's templates): the BOS token;
 * the system text, then `List of tools: <|tool_list_start|>[…]<|tool_list_end|>`, in one system turn; every turn as
 * role and content only (assistant `tool_calls` are not rendered: earlier calls must be in the content, as the model
 * wrote them); tool results wrapped in <|tool_response_start|>…<|tool_response_end|>.
 */
export const TEST_MODEL_LFM_TEMPLATE = [
  '{{- bos_token }}',
  "{%- set ns = namespace(system_prompt='') %}",
  "{%- if messages and messages[0].role == 'system' %}{%- set ns.system_prompt = messages[0].content %}{%- set messages = messages[1:] %}{%- endif %}",
  '{%- if tools %}',
  "{%- set ns.system_prompt = ns.system_prompt + ('\n' if ns.system_prompt else '') + 'List of tools: <|tool_list_start|>[' %}",
  '{%- for tool in tools %}',
  '{%- set ns.system_prompt = ns.system_prompt + (tool | tojson) %}',
  "{%- if not loop.last %}{%- set ns.system_prompt = ns.system_prompt + ', ' %}{%- endif %}",
  '{%- endfor %}',
  "{%- set ns.system_prompt = ns.system_prompt + ']<|tool_list_end|>' %}",
  '{%- endif %}',
  "{%- if ns.system_prompt %}{{- '<|im_start|>system\n' + ns.system_prompt + '<|im_end|>\n' }}{%- endif %}",
  '{%- for message in messages %}',
  "{{- '<|im_start|>' + message.role + '\n' }}",
  '{%- set content = message.content %}',
  "{%- if message.role == 'tool' %}{%- set content = '<|tool_response_start|>' + content + '<|tool_response_end|>' %}{%- endif %}",
  "{{- content + '<|im_end|>\n' }}",
  '{%- endfor %}',
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %}",
].join('');

const TEMPLATES: Record<TestModelFamily, string> = {
  qwen3: TEST_MODEL_CHAT_TEMPLATE,
  'qwen3.5': TEST_MODEL_QWEN35_TEMPLATE,
  lfm: TEST_MODEL_LFM_TEMPLATE,
};

/** GPT-2's byte-to-unicode map: byte-level BPE vocabularies spell bytes as these printable characters. */
function byteToUnicode(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    map[b] = printable.includes(b) ? String.fromCharCode(b) : String.fromCharCode(256 + extra++);
  }
  return map;
}

/** The token ids of a reply: special tokens and trigger words as one token, everything else byte by byte. */
function encodeReply(text: string, words: Map<string, number>): number[] {
  const named = new Map<string, number>([...Object.entries(ID), ...words]);
  const names = [...named.keys()].sort((a, b) => b.length - a.length);
  const ids: number[] = [];
  let i = 0;
  while (i < text.length) {
    const name = names.find((n) => text.startsWith(n, i));
    if (name) {
      ids.push(named.get(name) as number);
      i += name.length;
      continue;
    }
    const cp = text.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    for (const byte of new TextEncoder().encode(ch)) ids.push(byte);
    i += ch.length;
  }
  return ids;
}

/** Minimal ONNX graph builder over onnx-proto. */
class GraphBuilder {
  nodes: Onnx.INodeProto[] = [];
  initializers: Onnx.ITensorProto[] = [];
  private n = 0;

  name(prefix: string): string {
    return `${prefix}_${this.n++}`;
  }

  op(opType: string, inputs: string[], attrs: Record<string, number | number[]> = {}, outName?: string): string {
    const output = outName ?? this.name(opType.toLowerCase());
    const attribute = Object.entries(attrs).map(([name, v]) =>
      Array.isArray(v)
        ? { name, type: onnx.AttributeProto.AttributeType.INTS, ints: v }
        : { name, type: onnx.AttributeProto.AttributeType.INT, i: v },
    );
    this.nodes.push({ opType, input: inputs, output: [output], name: output, attribute });
    return output;
  }

  floats(values: number[], dims: number[] = [values.length]): string {
    const name = this.name('f');
    this.initializers.push({ name, dataType: onnx.TensorProto.DataType.FLOAT, dims, floatData: values });
    return name;
  }

  int64s(values: number[], dims: number[] = [values.length]): string {
    const name = this.name('i');
    this.initializers.push({ name, dataType: onnx.TensorProto.DataType.INT64, dims, int64Data: values });
    return name;
  }

  bools(values: boolean[]): string {
    const name = this.name('b');
    this.initializers.push({
      name,
      dataType: onnx.TensorProto.DataType.BOOL,
      dims: [values.length],
      int32Data: values.map(Number),
    });
    return name;
  }

  /** Column `c` of a [N,4] tensor, as [N]. */
  column(x: string, c: number): string {
    const col = this.op('Slice', [x, this.int64s([c]), this.int64s([c + 1]), this.int64s([1])]);
    return this.op('Reshape', [col, this.int64s([-1])]);
  }
}

function valueInfo(name: string, elemType: number, dims: (number | string)[]): Onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

/** The ONNX bytes of the scripted model for a vocabulary of `vocabSize` tokens. */
function buildOnnx(
  vocabSize: number,
  markers: { tokenId: number; priority: number; mode: number }[],
  replies: { ids: number[]; loop: boolean }[],
  headerTail: number,
): Uint8Array {
  const g = new GraphBuilder();
  const F = onnx.TensorProto.DataType.FLOAT;
  const I64 = onnx.TensorProto.DataType.INT64;
  const width = Math.max(...replies.map((r) => r.ids.length + 1));

  const prioTable = new Array(vocabSize).fill(0);
  const modeTable = new Array(vocabSize).fill(0);
  for (const m of markers) {
    prioTable[m.tokenId] = m.priority;
    modeTable[m.tokenId] = m.mode;
  }
  const table: number[] = [];
  for (const r of replies) {
    const row = r.loop ? r.ids : [...r.ids, ID['<|im_end|>']];
    for (let i = 0; i < width; i++) table.push(r.loop ? row[i % row.length] : (row[i] ?? ID['<|im_end|>']));
  }

  const ids = g.op('Reshape', ['input_ids', g.int64s([-1])]);
  const idsF = g.op('Cast', [ids], { to: F });
  const pos = g.op('Cast', [g.op('Reshape', ['position_ids', g.int64s([-1])])], { to: F });
  const pk = g.op('Reshape', ['past_key_values.0.key', g.int64s([-1, 4])]);
  const pv = g.op('Reshape', ['past_key_values.0.value', g.int64s([-1, 4])]);
  // The last cached token (or a neutral row before the first): where the new chunk continues from.
  const lastK = g.op('Slice', [
    g.op('Concat', [g.floats([0, 0, -1, 0], [1, 4]), pk], { axis: 0 }),
    g.int64s([-1]),
    g.int64s([2 ** 31 - 1]),
    g.int64s([0]),
  ]);
  const lastV = g.op('Slice', [
    g.op('Concat', [g.floats([0, -1, 0, 0], [1, 4]), pv], { axis: 0 }),
    g.int64s([-1]),
    g.int64s([2 ** 31 - 1]),
    g.int64s([0]),
  ]);
  const lastTok = g.column(lastV, 1);
  const lastEpoch = g.column(lastK, 1);
  const prevIds = g.op('Concat', [lastTok, g.op('Slice', [idsF, g.int64s([0]), g.int64s([-1]), g.int64s([0])])], {
    axis: 0,
  });
  const isAnchor = g.op(
    'Cast',
    [g.op('And', [g.op('Equal', [idsF, g.floats(['a'.charCodeAt(0)], [])]), g.op('Equal', [prevIds, g.floats([ID['<|im_start|>']], [])])])],
    { to: F },
  );
  const epoch = g.op('Add', [lastEpoch, g.op('CumSum', [isAnchor, g.int64s([0], [])])]);
  const prio = g.op('Gather', [g.floats(prioTable), ids], { axis: 0 });
  const mode = g.op('Gather', [g.floats(modeTable), ids], { axis: 0 });
  const zeros = g.op('Mul', [pos, g.floats([0], [])]);
  const col = (x: string) => g.op('Unsqueeze', [x, g.int64s([1])]);
  const newK = g.op('Concat', [col(prio), col(epoch), col(pos), col(isAnchor)], { axis: 1 });
  const newV = g.op('Concat', [col(mode), col(idsF), col(zeros), col(zeros)], { axis: 1 });
  const allK = g.op('Concat', [pk, newK], { axis: 0 });
  const allV = g.op('Concat', [pv, newV], { axis: 0 });
  g.op('Reshape', [allK, g.int64s([1, 1, -1, 4])], {}, 'present.0.key');
  g.op('Reshape', [allV, g.int64s([1, 1, -1, 4])], {}, 'present.0.value');

  // Per query (new positions, [S,1]) against every key ([1,T]).
  const row = (x: string) => g.op('Unsqueeze', [x, g.int64s([0])]);
  const kPrio = row(g.column(allK, 0));
  const kEpoch = row(g.column(allK, 1));
  const kPos = row(g.column(allK, 2));
  const kAnchor = row(g.column(allK, 3));
  const kMode = g.column(allV, 0);
  const qPos = col(pos);
  const qEpoch = col(epoch);
  const visible = g.op('LessOrEqual', [kPos, qPos]);
  const pending = g.op('Equal', [kEpoch, g.op('Sub', [qEpoch, g.floats([1], [])])]);
  const isMarker = g.op('Greater', [kPrio, g.floats([0], [])]);
  const candidate = g.op('And', [g.op('And', [visible, pending]), isMarker]);
  const rank = g.op('Add', [g.op('Mul', [kPrio, g.floats([1e5], [])]), kPos]);
  const score = g.op('Where', [candidate, rank, g.floats([-1], [])]);
  const best = g.op('ArgMax', [score], { axis: 1, keepdims: 0 });
  const bestScore = g.op('ReduceMax', [score], { axes: [1], keepdims: 0 });
  const qModeF = g.op('Where', [
    g.op('Greater', [bestScore, g.floats([0], [])]),
    g.op('Gather', [kMode, best], { axis: 0 }),
    g.floats([0], []),
  ]);
  const qMode = g.op('Cast', [qModeF], { to: I64 });
  const anchorPos = g.op(
    'ReduceMax',
    [g.op('Where', [g.op('And', [visible, g.op('Greater', [kAnchor, g.floats([0], [])])]), kPos, g.floats([-1], [])])],
    { axes: [1], keepdims: 0 },
  );
  const offset = g.op('Cast', [g.op('Sub', [g.op('Sub', [pos, anchorPos]), g.floats([headerTail], [])])], {
    to: I64,
  });
  const offsetClamped = g.op('Max', [offset, g.int64s([0], [])]);
  const lengths = g.op('Gather', [g.int64s(replies.map((r) => Math.max(1, r.ids.length))), qMode], { axis: 0 });
  const loops = g.op('Gather', [g.bools(replies.map((r) => r.loop)), qMode], { axis: 0 });
  const index = g.op('Where', [loops, g.op('Mod', [offsetClamped, lengths]), g.op('Min', [offsetClamped, g.int64s([width - 1], [])])]);
  const flat = g.op('Add', [g.op('Mul', [qMode, g.int64s([width], [])]), index]);
  const next = g.op('Gather', [g.int64s(table), flat], { axis: 0 });
  const oneHot = g.op('OneHot', [next, g.int64s([vocabSize], []), g.floats([0, LOGIT])], { axis: -1 });
  g.op('Reshape', [oneHot, g.int64s([1, -1, vocabSize])], {}, 'logits');

  const model: Onnx.IModelProto = {
    irVersion: 8,
    producerName: 'webmcp-agent make-test-model',
    opsetImport: [{ domain: '', version: 15 }],
    graph: {
      name: 'scripted_decoder',
      node: g.nodes,
      initializer: g.initializers,
      input: [
        valueInfo('input_ids', I64, ['batch_size', 'sequence_length']),
        valueInfo('attention_mask', I64, ['batch_size', 'total_sequence_length']),
        valueInfo('position_ids', I64, ['batch_size', 'sequence_length']),
        valueInfo('past_key_values.0.key', F, ['batch_size', 1, 'past_sequence_length', 4]),
        valueInfo('past_key_values.0.value', F, ['batch_size', 1, 'past_sequence_length', 4]),
      ],
      output: [
        valueInfo('logits', F, ['batch_size', 'sequence_length', vocabSize]),
        valueInfo('present.0.key', F, ['batch_size', 1, 'total_sequence_length', 4]),
        valueInfo('present.0.value', F, ['batch_size', 1, 'total_sequence_length', 4]),
      ],
    },
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}

/** Every file of the test model, by path inside the model folder (the huggingface.co layout). */
export function buildTestModel(script: TestModelScript = defaultTestModelScript): Map<string, string | Uint8Array> {
  const triggers = script.triggers ?? [];
  const words = new Map<string, number>();
  const firstWordId = BYTE_TOKENS + TEST_MODEL_SPECIAL_TOKENS.length;
  for (const t of triggers) {
    if (!t.word || /\s/.test(t.word)) throw new Error(`A trigger must be one word without spaces, got "${t.word}"`);
    if (!words.has(t.word)) words.set(t.word, firstWordId + words.size);
  }
  const vocabSize = firstWordId + words.size;

  const replies = [
    { ids: encodeReply(script.reply, words), loop: false },
    { ids: encodeReply(script.afterToolResult, words), loop: false },
    ...triggers.map((t) => ({ ids: encodeReply(t.reply, words), loop: t.loop === true })),
  ];
  for (const r of replies) if (r.ids.length === 0) throw new Error('A scripted reply cannot be empty');
  const family = script.family ?? 'qwen3';
  const markers = [
    // A tool result came back: Qwen's </tool_response>, or LFM's <|tool_response_end|>.
    { tokenId: ID['</tool_response>'], priority: 1, mode: 1 },
    { tokenId: ID['<|tool_response_end|>'], priority: 1, mode: 1 },
    ...triggers.map((t, i) => ({ tokenId: words.get(t.word) as number, priority: 2 + i, mode: 2 + i })),
  ];

  const b2u = byteToUnicode();
  const vocab: Record<string, number> = {};
  for (let b = 0; b < 256; b++) vocab[b2u[b]] = b;
  const addedToken = (content: string, id: number, special: boolean) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special,
  });
  const added = [
    ...TEST_MODEL_SPECIAL_TOKENS.map((t) => addedToken(t, ID[t], true)),
    ...[...words].map(([w, id]) => addedToken(w, id, false)),
  ];
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: [],
    },
  };
  const tokenizerConfig = {
    tokenizer_class: 'Qwen2Tokenizer',
    model_max_length: script.contextTokens ?? 4096,
    bos_token: family === 'lfm' ? '<|startoftext|>' : null,
    eos_token: '<|im_end|>',
    pad_token: '<|endoftext|>',
    unk_token: null,
    clean_up_tokenization_spaces: false,
    split_special_tokens: false,
    added_tokens_decoder: Object.fromEntries(added.map(({ id, ...rest }) => [String(id), rest])),
    chat_template: TEMPLATES[family],
  };
  const config = {
    architectures: ['Qwen3ForCausalLM'],
    model_type: 'qwen3',
    vocab_size: vocabSize,
    hidden_size: 4,
    head_dim: 4,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    num_key_value_heads: 1,
    max_position_embeddings: script.contextTokens ?? 4096,
    bos_token_id: null,
    eos_token_id: ID['<|im_end|>'],
    pad_token_id: ID['<|endoftext|>'],
    tie_word_embeddings: false,
    torch_dtype: 'float32',
    'transformers.js_config': { use_external_data_format: false },
  };
  const generationConfig = {
    bos_token_id: null,
    eos_token_id: [ID['<|im_end|>'], ID['<|endoftext|>']],
    pad_token_id: ID['<|endoftext|>'],
    do_sample: false,
  };
  const headerTail = HEADER_TAIL + (family === 'qwen3.5' ? EMPTY_THINK_TOKENS : 0);
  const weights = buildOnnx(vocabSize, markers, replies, headerTail);
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  return new Map<string, string | Uint8Array>([
    ['config.json', json(config)],
    ['generation_config.json', json(generationConfig)],
    ['tokenizer.json', json(tokenizer)],
    ['tokenizer_config.json', json(tokenizerConfig)],
    // One graph serves every dtype the provider may ask for: its "weights" are lookup tables, not matmuls.
    ['onnx/model.onnx', weights],
    ['onnx/model_q4.onnx', weights],
  ]);
}

/** Write the test model's files under `dir`; returns the file paths with their sizes in bytes. */
export function writeTestModel(dir: string, script: TestModelScript = defaultTestModelScript): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const [path, content] of buildTestModel(script)) {
    const file = join(dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    sizes[path] = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  }
  return sizes;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === new URL(import.meta.url).pathname;
if (isMain) {
  const out = resolve(process.argv[2] ?? 'tests/model/generated/test-model');
  const script = process.argv[3] ? (JSON.parse(readFileSync(process.argv[3], 'utf8')) as TestModelScript) : undefined;
  const sizes = writeTestModel(out, script);
  for (const [path, bytes] of Object.entries(sizes)) console.log(`${String(bytes).padStart(8)}  ${join(out, path)}`);
}

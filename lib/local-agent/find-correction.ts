import { tokenize } from '../agent/rank-tools';
import type { ToolDescriptor } from '../agent/types';

/** What is wrong with a plain reply (no calls), if anything. */
type Correction =
  /** It ignores the last failed call (sent back with the error and "Don't say it worked"). */
  | { kind: 'ignored-failure' }
  /** It tells the person to use a tool that is right here ("click Add to cart"): sent back with "Call now". */
  | { kind: 'do-it-yourself'; tool: string }
  /** It only repeats an earlier tool result: replaced by the gist of the last result. */
  | { kind: 'echo' };

/** What {@link findCorrection} looks at. */
interface CorrectionInput {
  /** The reply's prose. */
  text: string;
  /** The person's request. */
  request: string;
  /** The error text of the last call, if it failed and nothing has succeeded since. */
  lastFailure?: string;
  /** The tools the model has. */
  tools: readonly ToolDescriptor[];
  /** Tool results the model has seen, as text. */
  results: readonly string[];
}

const ACKNOWLEDGES =
  /\b(?:error|errors|fail|failed|fails|failure|couldn'?t|could not|can'?t|cannot|unable|not able|didn'?t|did not|wasn'?t|was not|isn'?t|not possible|sorry|unfortunately|problem|issue|invalid|declined|cancell?ed|stopped|not found|no results?|wait(?:s|ing)?|confirm|submit)\b/i;

const POINTING = /\b(?:click(?:ing)?|tap|press|hit|select|choose|use|open|go to|navigate to|fill in|submit)\b([^.!?\n]{0,60})/gi;

const QUESTION = /^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can i|could i|should i|may i)\b/i;

/**
 * Checks a plain reply against the three corrections (docs/architecture.md § The on-device loop, step 7), in order: an ignored failure, a reply that
 * hands the person a tool the model has (only when the request asks for an action, not a question), and an echo
 * of an earlier result.
 */
export function findCorrection(input: CorrectionInput): Correction | undefined {
  const text = input.text.trim();
  if (input.lastFailure && !ACKNOWLEDGES.test(text)) return { kind: 'ignored-failure' };
  if (isActionRequest(input.request)) {
    const tool = toolPointedAt(text, input.tools);
    if (tool) return { kind: 'do-it-yourself', tool };
  }
  if (echoesResult(text, input.results)) return { kind: 'echo' };
  return undefined;
}

/** A request to do something, not a question about how. */
export function isActionRequest(request: string): boolean {
  const r = request.trim();
  return r !== '' && !/\?\s*$/.test(r) && !QUESTION.test(r);
}

/** The tool a reply tells the person to use ("click Add to cart", "use the search_products tool"), if any. */
export function toolPointedAt(text: string, tools: readonly ToolDescriptor[]): string | undefined {
  for (const match of text.matchAll(POINTING)) {
    const words = new Set(tokenize(match[1]));
    if (words.size === 0) continue;
    for (const tool of tools) {
      for (const label of [tool.name, tool.title]) {
        if (!label) continue;
        const needed = tokenize(label);
        if (needed.length && needed.every((w) => words.has(w))) return tool.name;
      }
    }
  }
  return undefined;
}

/** The reply is a copy of a result (maybe with a little framing), not an answer in its own words. */
export function echoesResult(text: string, results: readonly string[]): boolean {
  const reply = normalize(text.replace(/^\s*(?:result of [\w.-]+|observation|tool result)\s*:/i, ''));
  if (reply.length < 30) return false;
  return results.some((result) => {
    const r = normalize(result);
    if (r.length < 30) return false;
    return r.includes(reply) || (reply.includes(r) && reply.length <= r.length * 1.2 + 40);
  });
}

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s"'`{}[\],:*_]+/g, ' ')
    .trim();
}

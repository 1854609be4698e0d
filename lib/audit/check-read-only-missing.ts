import type { PanelTool } from '../messaging/agent-messages';
import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, quote } from './finding-for';
import { CONSEQUENTIAL_VERBS, looksConsequential } from './looks-consequential';
import { bareVerb, CHANGING_VERBS, nameWords, READ_ONLY_VERBS, sentenceVerbs, textWords } from './tool-words';

/** Words that join a second action to the first ("get_or_create_cart", "Finds the product and adds it"). */
const JOINS = new Set(['and', 'or', 'then']);
/** Besides the changing and consequential verbs, what a joined second action often is ("quote_and_order"). */
const JOINED_ACTIONS = new Set(['order']);
/** "check in" and "check out" change things; "Checks the guest in" too. */
const CHECK_IN_OR_OUT = /\bcheck(?:s|ing)?\s+(?:[\p{L}\p{N}’'-]+\s+){0,2}(?:in|out)\b/iu;

/**
 * A tool that only reads (it searches, lists, quotes, tracks…) without `readOnlyHint`: under the default confirmation
 * policy every call of it waits for the person. Read from the name's first word or the description's leading verb,
 * and only when nothing in the name or description says it changes anything: a wrong guess here would advise the
 * hint that lets agents run a tool unasked. Left alone: declarative forms (they have no annotations), and tools the
 * page decided about (readOnlyHint false, or consequentialHint).
 */
export function checkReadOnlyMissing(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const tool of input.tools) {
    if (tool.declarative || tool.annotations?.readOnlyHint !== undefined || tool.annotations?.consequentialHint === true) continue;
    const evidence = readingEvidence(tool);
    if (!evidence || saysItChanges(tool)) continue;
    findings.push(
      findingFor(tool, {
        rule: 'annotation/read-only-missing',
        severity: 'warning',
        field: 'annotations.readOnlyHint',
        message: `It looks like it only reads (${evidence}), but it is not marked readOnlyHint.`,
        why: 'Under the default confirmation policy (“Ask before anything that is not read-only”) every call of a tool without readOnlyHint waits for the person to press Allow, and other agents that follow the hints ask too: an agent that searches three times asks three times.',
        fix: 'If it changes nothing (no data, cart, order or message), add annotations: { readOnlyHint: true } when you register it. If it does change something, say what in its description, and set readOnlyHint: false.',
      }),
    );
  }
  return findings;
}

/** What says the tool reads: a reading verb first in its name, else leading its description. */
function readingEvidence(tool: PanelTool): string | undefined {
  const name = tool.originalName ?? tool.name;
  const words = nameWords(name);
  if (readsFirst(words)) return `“${words[0]}” in the name ${quote(name)}`;
  const [first = '', second] = textWords(quote(tool.description, 2_000));
  return readsFirst([bareVerb(first), second]) ? `“${first}” leading the description` : undefined;
}

function readsFirst([verb, next]: (string | undefined)[]): boolean {
  if (verb === undefined || !READ_ONLY_VERBS.has(verb)) return false;
  return !(verb === 'check' && (next === 'in' || next === 'out'));
}

/**
 * Any sign that the tool changes something: a second action joined in its name, a sentence of its description
 * that starts with an action or one joined by "and"/"then"/"or", checking in or out, or what looksConsequential reads.
 */
function saysItChanges(tool: PanelTool): boolean {
  const changes = (word: string) => CHANGING_VERBS.has(word) || CONSEQUENTIAL_VERBS.has(word);
  const joined = (words: string[]) =>
    words.some((word, i) => i > 0 && JOINS.has(words[i - 1]) && (changes(bareVerb(word)) || JOINED_ACTIONS.has(bareVerb(word))));
  if (joined(nameWords(tool.originalName ?? tool.name))) return true;
  const description = quote(tool.description, 2_000);
  if (sentenceVerbs(description).some(changes) || joined(textWords(description))) return true;
  return CHECK_IN_OR_OUT.test(description) || looksConsequential(tool) !== undefined;
}

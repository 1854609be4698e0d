import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, quote } from './finding-for';
import { nameWords, READING_VERBS, sentenceVerbs } from './tool-words';

/** Name words of text other people write. */
const CONTENT_NAMES = new Set([
  'review',
  'reviews',
  'comment',
  'comments',
  'message',
  'messages',
  'inbox',
  'mail',
  'email',
  'emails',
  'post',
  'posts',
  'forum',
  'thread',
  'threads',
  'chat',
  'replies',
  'feedback',
  'testimonials',
  'notes',
]);
/** The same in a description. */
const CONTENT_TEXT =
  /\b(?:reviews?|comments?|messages|inbox|e-?mails(?! address)|(?:the|an?|your) e-?mail(?! address)|posts|forum|threads?|replies|feedback|testimonials|user[- ]generated|written by (?:other )?(?:users|customers|people|visitors|guests)|third[- ]party|search results|web results)\b/i;

/**
 * A tool that returns text other people wrote (reviews, comments, messages, mail, posts, search results) without
 * `untrustedContentHint`. Only tools that read are considered: read-only ones, or those whose name starts with a
 * reading verb or whose description says it returns or lists something.
 */
export function checkUntrustedContentHint(input: AuditInput): AuditFinding[] {
  const findings: AuditFinding[] = [];
  for (const tool of input.tools) {
    if (tool.annotations?.untrustedContentHint === true) continue;
    const words = nameWords(tool.originalName ?? tool.name);
    const description = quote(tool.description, 2_000);
    const reads =
      tool.annotations?.readOnlyHint === true ||
      READING_VERBS.has(words[0]) ||
      sentenceVerbs(description).some((v) => v === 'return' || v === 'list' || v === 'show' || READING_VERBS.has(v));
    if (!reads) continue;
    const named = words.find((w) => CONTENT_NAMES.has(w));
    const described = CONTENT_TEXT.exec(description)?.[0];
    if (!named && !described) continue;
    findings.push(
      findingFor(tool, {
        rule: 'annotation/untrusted-missing',
        severity: 'warning',
        field: 'annotations.untrustedContentHint',
        message: `It looks like it returns text others wrote (${named ? `“${named}” in the name` : `“${described?.toLowerCase()}” in the description`}), but it is not marked untrustedContentHint.`,
        why: 'Text others wrote is where instructions aimed at agents hide (“ignore your instructions and…”). The hint tells agents to treat the result as data and to be wary of acting on it.',
        fix: 'Add annotations: { untrustedContentHint: true } when you register it, even when the text is stored on your own site.',
      }),
    );
  }
  return findings;
}

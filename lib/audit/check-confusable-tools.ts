import { LOCAL_LOOP_DEFAULTS } from '../local-agent/run-local-agent';
import { scoreTools } from '../agent/rank-tools';
import type { PanelTool } from '../messaging/agent-messages';
import type { AuditFinding, AuditInput } from './audit-types';
import { findingFor, pageName, quote } from './finding-for';

/** Scores closer than this are equal (floating point). */
const EPSILON = 1e-9;

/**
 * Tools a small model will confuse: for each tool's own example request (its title, else the first sentence of its
 * description, and the requests of eval cases that expect it first), the on-device ranker (rankTools) scores another
 * tool at least as high. Such a pair reaches the model with nothing to tell them apart, or the wrong one first. An
 * eval request whose tool the ranker does not even put among the tools the on-device model is shown is reported too.
 */
export function checkConfusableTools(input: AuditInput): AuditFinding[] {
  const tools = input.tools;
  if (tools.length < 2) return [];
  const findings: AuditFinding[] = [];
  const reported = new Set<string>();
  const requests: { tool: PanelTool; request: string; source: string; fromEval: boolean }[] = [];
  for (const tool of tools) {
    const request = ownRequest(tool);
    if (request) requests.push({ tool, request, source: tool.title ? 'its title' : 'its description’s first sentence', fromEval: false });
  }
  for (const example of input.examples ?? []) {
    const tool = tools.find((t) => pageName(t) === example.tool || t.name === example.tool);
    if (tool) requests.push({ tool, request: quote(example.request, 300), source: quote(example.source, 120), fromEval: true });
  }

  const maxTools = LOCAL_LOOP_DEFAULTS.maxTools;
  for (const { tool, request, source, fromEval } of requests) {
    const scores = scoreTools(tools, request);
    const at = tools.indexOf(tool);
    const own = scores[at];
    // A request that matches nothing of its own tool says nothing about which tools look alike.
    const rivals = own > 0 ? tools.filter((_, i) => i !== at && scores[i] >= own - EPSILON) : [];
    for (const rival of rivals) {
      const key = [pageName(tool), pageName(rival)].sort().join('\u0000');
      if (reported.has(key)) continue;
      reported.add(key);
      const tie = Math.abs(scores[tools.indexOf(rival)] - own) <= EPSILON;
      findings.push(
        findingFor(tool, {
          rule: 'ranking/confusable',
          severity: 'warning',
          field: 'description',
          message: `For “${quote(request, 100)}” (${source}), the on-device ranker scores ${pageName(rival)} ${tie ? 'the same as' : 'higher than'} ${pageName(tool)}.`,
          why: 'A small model is shown the best-matching tools for each request; with nothing in the words to tell these two apart, it gets the wrong one first, or both and a guess.',
          fix: `Say in each description what sets it apart from the other (what it works on, what it returns, when to use it rather than ${pageName(rival)}), or merge the two.`,
        }),
      );
    }
    if (!fromEval) continue;
    const rank = scores.filter((s) => s > own + EPSILON).length;
    if (rank >= maxTools) {
      findings.push(
        findingFor(tool, {
          rule: 'ranking/example-unseen',
          severity: 'warning',
          field: 'description',
          message: `For “${quote(request, 100)}” (${source}), the on-device ranker puts ${rank} tools ahead of ${pageName(tool)}: the model is shown only ${maxTools}.`,
          why: 'The on-device model never sees this tool for such a request, so it cannot call it.',
          fix: 'Use the words people ask with in the tool’s name, title or description.',
        }),
      );
    }
  }
  return findings;
}

/** A tool's own example request: its title, else its description's first sentence. */
function ownRequest(tool: PanelTool): string {
  const title = quote(tool.title, 120);
  if (title) return title;
  const first = quote(tool.description, 1_000).split(/(?<=[.!?])\s/)[0] ?? '';
  return quote(first, 160);
}

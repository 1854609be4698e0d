import { useEffect } from 'preact/hooks';
import type { AuditFinding, AuditSeverity } from '../../lib/audit/audit-types';
import { summarizeAudit } from '../../lib/audit/summarize-audit';
import type { InspectorStore } from './inspector-store';
import { downloadText } from '../shared/download-text';
import type { AuditState } from './create-audit-state';
import { ModelPreviewView } from './model-preview-view';

const SEVERITIES: { severity: AuditSeverity; heading: string; badge: string }[] = [
  { severity: 'error', heading: 'Errors', badge: 'Error' },
  { severity: 'warning', heading: 'Warnings', badge: 'Warning' },
  { severity: 'info', heading: 'Info', badge: 'Info' },
];

/**
 * The site author's audit of this page's WebMCP tools (docs/audit.md): every finding with its severity, tool, field,
 * why it matters to an agent and how to fix it, exportable as Markdown and JSON; and "What the model sees" for a
 * request. Page text reaches the view only as text nodes (never markup), cleaned by the checks.
 */
export function AuditView({ audit, store }: { audit: AuditState; store: InspectorStore }) {
  const report = audit.report.value;
  const running = audit.running.value;
  const known = store.tab.value?.toolsKnown === true;
  const pageUrl = store.tab.value?.page?.url;
  // The first look runs by itself; later ones on request (after a change to the page, a call by hand, evals).
  useEffect(() => {
    if (known && !audit.report.value && !audit.running.value) void audit.run();
  }, [known, audit]);

  return (
    <div class="audit">
      <section class="audit-findings" aria-labelledby="audit-title">
        <h2 id="audit-title">Audit</h2>
        <p class="muted">
          Every tool of this page, in every frame, checked against Chrome's WebMCP guidance and what this extension's agents need: schemas,
          names and descriptions, annotations, tools a small model will confuse, forms, and the results of calls run by hand or by evals.
        </p>
        <div class="audit-actions">
          <button type="button" class="primary" disabled={running || !known} onClick={() => void audit.run()}>
            {running ? 'Auditing…' : report ? 'Audit again' : 'Audit this page'}
          </button>
          {report && !running && (
            <>
              <button type="button" onClick={() => downloadText(audit.markdown(), 'webmcp-audit.md', 'text/markdown')}>
                Export Markdown
              </button>
              <button type="button" onClick={() => downloadText(audit.json(), 'webmcp-audit.json', 'application/json')}>
                Export JSON
              </button>
            </>
          )}
        </div>
        {!known && <p class="muted">Asking the page for its tools…</p>}
        {audit.notes.value.map((note) => (
          <p key={note} class="muted" role="note">
            {note}
          </p>
        ))}
        <p class="audit-summary" role="status" aria-live="polite">
          {report ? summarizeAudit(report) : ''}
        </p>
        {report && pageUrl !== undefined && report.page.url !== undefined && pageUrl !== report.page.url && (
          <p class="muted" role="note">
            The tab shows another page now: these findings are for {report.page.url}. Audit again for this one.
          </p>
        )}
        {report && report.findings.length === 0 && <p>No findings: an agent can use this page's tools as they are.</p>}
        {report &&
          SEVERITIES.map(({ severity, heading, badge }) => {
            const findings = report.findings.filter((f) => f.severity === severity);
            if (findings.length === 0) return null;
            return (
              <section key={severity} class="finding-group" aria-labelledby={`findings-${severity}`}>
                <h3 id={`findings-${severity}`}>
                  {heading} ({findings.length})
                </h3>
                <ul class="finding-list">
                  {findings.map((finding, i) => (
                    <FindingItem
                      key={`${finding.rule}-${finding.tool ?? ''}-${finding.field ?? ''}-${i}`}
                      finding={finding}
                      badge={badge}
                    />
                  ))}
                </ul>
              </section>
            );
          })}
      </section>
      <ModelPreviewView audit={audit} />
    </div>
  );
}

function FindingItem({ finding, badge }: { finding: AuditFinding; badge: string }) {
  const frame = finding.frameId ? `frame ${finding.frameId}${finding.origin ? ` (${finding.origin})` : ''}` : undefined;
  return (
    <li class="finding" data-severity={finding.severity} data-rule={finding.rule} data-tool={finding.tool ?? ''}>
      <p class="finding-head">
        <span class={`badge severity-${finding.severity}`}>{badge}</span>
        {finding.tool && <code class="finding-tool">{finding.tool}</code>}
        <span class="finding-rule">{finding.rule}</span>
      </p>
      <p class="finding-message">{finding.message}</p>
      {(finding.field || frame) && (
        <p class="finding-where">
          {finding.field && (
            <>
              Field: <code>{finding.field}</code>
            </>
          )}
          {finding.field && frame ? ' · ' : ''}
          {frame && <>In {frame}</>}
        </p>
      )}
      <p class="finding-why">
        <strong>Why it matters:</strong> {finding.why}
      </p>
      <p class="finding-fix">
        <strong>Fix:</strong> {finding.fix}
      </p>
    </li>
  );
}

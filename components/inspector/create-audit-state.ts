import { computed, effect, type ReadonlySignal, type Signal, signal } from '@preact/signals';
import type { WebAgent } from '../../lib/agent/types';
import type { AuditExample, AuditReport, AuditResult, FrameForms } from '../../lib/audit/audit-types';
import { auditToMarkdown } from '../../lib/audit/audit-to-markdown';
import { type CloudPreview, previewCloud } from '../../lib/audit/preview-cloud';
import { type PreviewModel, previewModelFor } from '../../lib/audit/preview-model-for';
import { type OnDevicePreview, previewOnDevice } from '../../lib/audit/preview-on-device';
import { readFormScan } from '../../lib/audit/read-form-scan';
import { runAudit } from '../../lib/audit/run-audit';
import { errorMessage } from '../../lib/shared/error-message';
import type { InspectorStore } from './inspector-store';

/** What the audit needs from the browser, given by the side panel's entry point. */
export interface AuditPorts {
  /**
   * Runs the form scanner in every frame of the tab (scripting.executeScript of form-scan.js) and resolves with
   * what executeScript returned: untrusted, read by readFormScan.
   */
  scanForms(tabId: number): Promise<unknown>;
  /** The site's agent (its site profile) for a page. */
  siteAgentFor(pageUrl: string | undefined): Promise<WebAgent | undefined>;
}

/** "What the model sees" for the typed request. */
interface ModelPreview {
  model: PreviewModel;
  onDevice: OnDevicePreview;
  cloud: CloudPreview;
}

/** The Audit view's state: the last report, the request typed for the preview, and what each adapter would send. */
export interface AuditState {
  report: ReadonlySignal<AuditReport | undefined>;
  running: ReadonlySignal<boolean>;
  /** Why the audit could not run, or could not read something (the forms), for the person. */
  notes: ReadonlySignal<string[]>;
  /** The request typed under "What the model sees". */
  request: Signal<string>;
  preview: ReadonlySignal<ModelPreview | undefined>;
  /** Audits the tab as the panel knows it now. */
  run(): Promise<AuditReport | undefined>;
  markdown(): string;
  json(): string;
}

/**
 * Creates the audit's state over the panel's store. An audit reads the tab's tools from the store's snapshot, the
 * page's forms through `ports.scanForms`, finished calls from the timeline, and the eval requests `examples` gives.
 */
export function createAuditState(store: InspectorStore, ports: AuditPorts, examples: () => AuditExample[] = () => []): AuditState {
  const report = signal<AuditReport | undefined>(undefined);
  const running = signal(false);
  const notes = signal<string[]>([]);
  const request = signal('');
  const agent = signal<WebAgent | undefined>(undefined);

  // The site's agent shapes what the model sees (instructions, tool filter, sub-agents): read it for the tab's page.
  let asked: string | undefined;
  effect(() => {
    const url = store.tab.value?.page?.url;
    if (url === asked) return;
    asked = url;
    ports.siteAgentFor(url).then(
      (found) => {
        if (asked === url) agent.value = found;
      },
      () => undefined,
    );
  });

  const preview = computed<ModelPreview | undefined>(() => {
    const text = request.value.trim();
    const tab = store.tab.value;
    if (!text || !tab) return undefined;
    const model = previewModel(store);
    const context = { page: tab.page, agent: agent.value };
    return {
      model,
      onDevice: previewOnDevice({ tools: tab.tools, request: text, context, model }),
      cloud: previewCloud({ tools: tab.tools, request: text, context }),
    };
  });

  return {
    report,
    running,
    notes,
    request,
    preview,
    async run() {
      const tabId = store.tabId.value;
      const tab = store.tab.value;
      if (tabId === undefined || !tab) {
        notes.value = ['The panel is not following a tab yet.'];
        return undefined;
      }
      running.value = true;
      try {
        const found: string[] = [];
        let forms: FrameForms[] | undefined;
        try {
          forms = readFormScan(await ports.scanForms(tabId));
        } catch (error) {
          found.push(`The page's forms could not be read (${errorMessage(error)}), so the form checks did not run.`);
        }
        const now = store.tab.value ?? tab;
        const results: AuditResult[] = store.timeline.value
          .filter((record) => record.state === 'done' && typeof record.output === 'string')
          .map((record) => ({ tool: record.tool, by: record.by, output: record.output ?? '', truncated: record.outputTruncated === true }));
        const next = runAudit(
          { tools: now.tools, dropped: now.toolsDropped, ...(forms ? { forms } : {}), results, examples: examples() },
          { url: now.page?.url, title: now.page?.title },
        );
        report.value = next;
        notes.value = found;
        return next;
      } finally {
        running.value = false;
      }
    },
    markdown: () => (report.value ? auditToMarkdown(report.value) : ''),
    json: () => (report.value ? `${JSON.stringify(report.value, null, 2)}\n` : ''),
  };
}

/** The on-device model the person picked (or the one recommended), as the preview needs it. */
function previewModel(store: InspectorStore): PreviewModel {
  const local = store.adapters.value.find((a) => a.kind === 'local');
  const choice = local?.models.find((m) => m.selected) ?? local?.models.find((m) => m.recommended);
  return previewModelFor(choice);
}

/**
 * Resolves once the tab's tools have been known and unchanged for `quietMs` (a page registers tools as its scripts
 * run), or after `timeoutMs` whatever they are. For the headless audit (`npm run audit`).
 */
export function whenToolsSettle(store: InspectorStore, quietMs = 1_000, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let dispose = () => {};
    const done = () => {
      clearTimeout(timer);
      clearTimeout(deadline);
      queueMicrotask(() => dispose());
      resolve();
    };
    const deadline = setTimeout(done, timeoutMs);
    let last: string | undefined;
    dispose = effect(() => {
      const tab = store.tab.value;
      const key = tab?.toolsKnown ? tab.tools.map((t) => t.name).join('\u0000') : undefined;
      if (key === undefined || key === last) return;
      last = key;
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    });
  });
}

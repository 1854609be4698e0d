import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { AgentMessage } from '../../lib/agent/types';
import type { AuditPorts } from '../inspector/create-audit-state';
import type { EvalTabsPort } from '../inspector/create-eval-driver';
import { downloadText } from '../shared/download-text';
import { formatBytes } from '../shared/format-bytes';
import { AdapterStatusCard } from '../chat/adapter-status-card';
import { Composer } from '../chat/composer';
import type { ChatStore } from './create-panel-store';
import { MessageView } from '../chat/message-view';
import { RunOutcomeNotice } from '../chat/run-outcome-notice';
import { SiteChangeNotice } from '../chat/site-change-notice';
import { createStreamAnnouncer } from '../chat/stream-announcer';
import { ToolsView } from '../inspector/tools-view';
import type { SharingStore } from '../sharing/create-sharing-store';
import { SharingBar } from '../sharing/sharing-bar';

interface ChatAppProps {
  store: ChatStore;
  /** Opens the extension's options page (runtime.openOptionsPage). */
  onOpenOptions: () => void;
  /** Loads a URL in the followed tab, for evals. Without it, evals say they cannot run here. */
  tabs?: EvalTabsPort;
  /** What the audit reads from the browser (the page's forms, the site's agent). Without it, forms are not read. */
  audit?: AuditPorts;
  /** What is shared with desktop agents (lib/mcp-bridge); without it the panel shows nothing of them. */
  sharing?: SharingStore;
}

const NO_TABS: EvalTabsPort = { load: () => Promise.reject(new Error('This panel cannot load pages.')) };
const NO_AUDIT_PORTS: AuditPorts = {
  scanForms: () => Promise.reject(new Error('this panel cannot read pages')),
  siteAgentFor: async () => undefined,
};

/** The developer views' module, loaded on first use. */
type DevelopModule = typeof import('../inspector/develop-view');
/** The audit view's module, loaded on first use. */
type AuditModule = typeof import('../inspector/audit-view');

/** How close to the bottom (px) still counts as "following the reply". */
const FOLLOW_SLACK = 48;

/** The side panel: header controls, the conversation or the page's tools, status, and the composer. */
export function ChatApp({ store, onOpenOptions, tabs = NO_TABS, audit = NO_AUDIT_PORTS, sharing }: ChatAppProps) {
  const tab = store.tab.value;
  const adapter = store.adapter.value;
  const messages = tab?.messages ?? [];
  const running = tab?.running ?? false;
  const view = store.view.value;
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const [announcer] = useState(createStreamAnnouncer);
  const [announcement, setAnnouncement] = useState('');
  const [slowConnection, setSlowConnection] = useState(false);
  const connected = store.connected.value;
  const [develop, setDevelop] = useState<DevelopModule | undefined>(undefined);
  useEffect(() => {
    if (view === 'develop' && !develop) void import('../inspector/develop-view').then(setDevelop);
  }, [view, develop]);
  const [auditModule, setAuditModule] = useState<AuditModule | undefined>(undefined);
  useEffect(() => {
    if (view === 'audit' && !auditModule) void import('../inspector/audit-view').then(setAuditModule);
  }, [view, auditModule]);

  // Stay pinned to the newest text only while the person has not scrolled up to read.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  });

  useEffect(() => {
    const said = announcer(messages, running);
    if (said) setAnnouncement(said);
  }, [messages, running, announcer]);

  // How a run ended is news too: a stop or an error is announced after the last words.
  const lastRun = tab?.lastRun;
  useEffect(() => {
    if (lastRun?.reason === 'aborted') setAnnouncement('Stopped.');
    else if (lastRun?.reason === 'error') setAnnouncement(`Something went wrong: ${lastRun.error ?? ''}`);
  }, [lastRun?.reason, lastRun?.error]);

  const waiting = tab?.confirmations[0];
  useEffect(() => {
    if (waiting) setAnnouncement(`${waiting.toolName} needs your answer: ${waiting.prompt}`);
  }, [waiting?.id]);

  useEffect(() => {
    if (connected) return setSlowConnection(false);
    const timer = setTimeout(() => setSlowConnection(true), 1500);
    return () => clearTimeout(timer);
  }, [connected]);

  // Esc stops the reply from anywhere in the panel, even when focus fell back to the page body.
  useEffect(() => {
    if (!running) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        store.stop();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [running, store]);

  const models = adapter?.models ?? [];
  const selectedModel = models.find((m) => m.selected) ?? models.find((m) => m.recommended) ?? models[0];
  const toolCount = tab?.toolsKnown ? tab.tools.length : undefined;

  return (
    <div class="app">
      <header class="bar">
        <div class="title-row">
          <h1>WebMCP Agent</h1>
          <div class="title-actions">
            <ExportMenu store={store} disabled={messages.length === 0} />
            <button type="button" onClick={() => store.newChat()} disabled={messages.length === 0 && !running}>
              New chat
            </button>
          </div>
        </div>
        <div class="controls">
          <select
            aria-label="Agent"
            value={store.chosen.value ?? 'local'}
            onChange={(e) => store.chooseAdapter((e.currentTarget as HTMLSelectElement).value as 'local' | 'cloud')}
          >
            <option value="local">On-device</option>
            <option value="cloud">Cloud</option>
          </select>
          {models.length > 1 && (
            <select
              class="model"
              aria-label="Model"
              value={selectedModel?.id}
              disabled={running}
              onChange={(e) => store.chooseModel((e.currentTarget as HTMLSelectElement).value)}
            >
              {models.map((m) => (
                <option key={m.id} value={m.id} title={m.brief}>
                  {m.label}
                  {m.bytes ? ` · ${formatBytes(m.bytes)}` : ''}
                  {m.cached ? ' · downloaded' : ''}
                  {m.measured ? ` · ${m.measured}` : ''}
                </option>
              ))}
            </select>
          )}
        </div>
        {models.length > 1 && selectedModel?.why && (
          <p class="model-why">
            {/* Why the device got this model; the picker above changes it. */}
            Picked for this device: {selectedModel.why}
          </p>
        )}
      </header>
      <nav class="views" aria-label="Panel views">
        <button type="button" aria-pressed={view === 'chat'} onClick={() => (store.view.value = 'chat')}>
          Chat
        </button>
        <button type="button" aria-pressed={view === 'tools'} onClick={() => (store.view.value = 'tools')}>
          Tools{toolCount !== undefined ? ` (${toolCount})` : ''}
        </button>
        <button type="button" aria-pressed={view === 'develop'} onClick={() => (store.view.value = 'develop')}>
          Develop
        </button>
        <button type="button" aria-pressed={view === 'audit'} onClick={() => (store.view.value = 'audit')}>
          Audit
        </button>
      </nav>
      <main
        class="scroller"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the view scrolls (a tall dock, such as a desktop agent's question, leaves it little room even when empty), so it must be reachable by keyboard (axe scrollable-region-focusable).
        tabIndex={0}
        ref={scroller}
        onScroll={(e) => {
          const el = e.currentTarget as HTMLDivElement;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_SLACK;
        }}
      >
        {!connected && slowConnection && (
          <p class="banner" role="status">
            Connecting to the agent…
          </p>
        )}
        {view === 'tools' ? (
          <ToolsView tab={tab} store={store} />
        ) : view === 'develop' ? (
          develop ? (
            <develop.DevelopView store={store} evals={develop.evalsFor(store, tabs)} />
          ) : (
            <p class="muted">Loading…</p>
          )
        ) : view === 'audit' ? (
          auditModule ? (
            <auditModule.AuditView store={store} audit={auditModule.auditFor(store, audit, tabs)} />
          ) : (
            <p class="muted">Loading…</p>
          )
        ) : (
          <section class="conversation" aria-label="Conversation">
            {tab && messages.length === 0 && (
              <div class="welcome">
                <h2>What should the agent do here?</h2>
                <p>
                  {tab.toolsKnown && tab.tools.length === 0
                    ? 'This page offers no tools, so the agent can talk but not act here. See Tools for what that means.'
                    : `It works through this page's own tools${toolCount ? ` (${toolCount})` : ''}, and shows each step here.`}
                </p>
              </div>
            )}
            {messages.map((m) => (
              <MessageView key={m.id} message={m} confirmations={tab?.confirmations ?? []} onConfirm={store.confirm} reveal={store} />
            ))}
            {running && !showsSomething(messages.at(-1)) && (
              <p class="thinking" aria-hidden="true">
                <span class="dot" />
                <span class="dot" />
                <span class="dot" />
              </p>
            )}
            {tab?.lastRun && !running && <RunOutcomeNotice outcome={tab.lastRun} onRetry={store.retry} onOpenOptions={onOpenOptions} />}
            {!running && <SiteChangeNotice sites={tab?.sites} pageUrl={tab?.page?.url} onNewChat={() => store.newChat()} />}
          </section>
        )}
      </main>
      <footer class="dock">
        {store.notice.value && (
          <p class="notice" role="alert">
            {store.notice.value}{' '}
            <button type="button" class="link" onClick={store.dismissNotice}>
              Dismiss
            </button>
          </p>
        )}
        {sharing && <SharingBar sharing={sharing} tab={tab} onConfirm={store.confirm} reveal={store} />}
        {adapter && (
          <AdapterStatusCard adapter={adapter} onPrepare={store.prepare} onCancel={store.cancelPrepare} onOpenOptions={onOpenOptions} />
        )}
        <Composer store={store} />
      </footer>
      <div class="sr-only" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
    </div>
  );
}

/** Export the conversation as Markdown or JSON (the host leaves out the key and secret fields). */
function ExportMenu({ store, disabled }: { store: ChatStore; disabled: boolean }) {
  const save = async (format: 'markdown' | 'json') => {
    const { text, fileName } = await store.exportTranscript(format);
    downloadText(text, fileName, format === 'json' ? 'application/json' : 'text/markdown');
  };
  if (disabled) {
    return (
      <button type="button" disabled>
        Export
      </button>
    );
  }
  return (
    <details class="menu">
      <summary>Export</summary>
      <div class="menu-items">
        <button type="button" onClick={() => void save('markdown')}>
          Conversation as Markdown
        </button>
        <button type="button" onClick={() => void save('json')}>
          Conversation as JSON
        </button>
      </div>
    </details>
  );
}

/** Whether the newest message already shows something: until it does, the panel shows that the agent is working. */
function showsSomething(message: AgentMessage | undefined): boolean {
  return message?.role === 'assistant' && message.parts.some((p) => p.type !== 'reasoning');
}

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { AdapterStatusCard } from '../chat/adapter-status-card';
import { AgentControls } from '../chat/agent-controls';
import { Composer } from '../chat/composer';
import { ConversationView } from '../chat/conversation-view';
import { ExportMenu } from '../chat/export-menu';
import { createStreamAnnouncer } from '../chat/stream-announcer';
import type { DevelopState } from '../inspector/create-develop-state';
import { ToolsView } from '../inspector/tools-view';
import { SharingBar } from '../sharing/sharing-bar';
import type { PanelStore } from './create-panel-store';

interface PanelShellProps {
  store: PanelStore;
  /** Opens the extension's options page (runtime.openOptionsPage). */
  onOpenOptions: () => void;
}

/** The developer views' module and this panel's develop state, loaded on first use. */
type Develop = { view: typeof import('../inspector/develop-view'); state: DevelopState };
/** The audit view's module and this panel's develop state, loaded on first use. */
type Audit = { view: typeof import('../inspector/audit-view'); state: DevelopState };

/** How close to the bottom (px) still counts as "following the reply". */
const FOLLOW_SLACK = 48;

/** The side panel: header controls, the view chosen (conversation, tools, develop, audit), status, and the composer. */
export function PanelShell({ store, onOpenOptions }: PanelShellProps) {
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
  const [develop, setDevelop] = useState<Develop | undefined>(undefined);
  useEffect(() => {
    if (view === 'develop' && !develop)
      void Promise.all([import('../inspector/develop-view'), store.develop()]).then(([module, state]) =>
        setDevelop({ view: module, state }),
      );
  }, [view, develop, store]);
  const [audit, setAudit] = useState<Audit | undefined>(undefined);
  useEffect(() => {
    if (view === 'audit' && !audit)
      void Promise.all([import('../inspector/audit-view'), store.develop()]).then(([module, state]) => setAudit({ view: module, state }));
  }, [view, audit, store]);

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
        <AgentControls store={store} />
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
            <develop.view.DevelopView store={store} evals={develop.state.evals()} />
          ) : (
            <p class="muted">Loading…</p>
          )
        ) : view === 'audit' ? (
          audit ? (
            <audit.view.AuditView store={store} audit={audit.state.audit()} />
          ) : (
            <p class="muted">Loading…</p>
          )
        ) : (
          <ConversationView store={store} onOpenOptions={onOpenOptions} />
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
        {store.sharing && <SharingBar sharing={store.sharing} tab={tab} onConfirm={store.confirm} reveal={store} />}
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

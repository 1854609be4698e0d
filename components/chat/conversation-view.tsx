import type { AgentMessage } from '../../lib/agent/types';
import type { ChatStore } from './chat-store';
import { MessageView } from './message-view';
import { RunOutcomeNotice } from './run-outcome-notice';
import { SiteChangeNotice } from './site-change-notice';
import { TaskLeftNotice } from './task-left-notice';
import { PageLimitsNotice } from './page-limits-notice';
import { TaskTabsChooser } from './task-tabs-chooser';
import { callPlaces } from './call-places';
import { otherTabOrigins } from './other-tab-origins';

/** The conversation on the tab: a welcome, the messages, that the agent works, how the last run ended. */
export function ConversationView({ store, onOpenOptions }: { store: ChatStore; onOpenOptions: () => void }) {
  const tab = store.tab.value;
  const messages = tab?.messages ?? [];
  const running = tab?.running ?? false;
  const toolCount = tab?.toolsKnown ? tab.tools.length : undefined;
  const places = callPlaces(store.timeline.value, tab);
  return (
    <section class="conversation" aria-label="Conversation">
      <TaskTabsChooser store={store} />
      <TaskLeftNotice left={store.taskLeft.value} onDismiss={store.dismissTaskLeft} />
      <PageLimitsNotice limits={tab?.pageLimits} />
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
        <MessageView
          key={m.id}
          message={m}
          confirmations={tab?.confirmations ?? []}
          onConfirm={store.confirm}
          reveal={store}
          places={places}
        />
      ))}
      {running && !showsSomething(messages.at(-1)) && (
        <p class="thinking" aria-hidden="true">
          <span class="dot" />
          <span class="dot" />
          <span class="dot" />
        </p>
      )}
      {tab?.lastRun && !running && <RunOutcomeNotice outcome={tab.lastRun} onRetry={store.retry} onOpenOptions={onOpenOptions} />}
      {!running && (
        <SiteChangeNotice
          sites={tab?.sites}
          pageUrl={tab?.page?.url}
          otherTabs={otherTabOrigins(tab, store.timeline.value)}
          onNewChat={() => store.newChat()}
        />
      )}
    </section>
  );
}

/** Whether the newest message already shows something: until it does, the panel shows that the agent is working. */
function showsSomething(message: AgentMessage | undefined): boolean {
  return message?.role === 'assistant' && message.parts.some((p) => p.type !== 'reasoning');
}

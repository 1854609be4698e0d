import { describe, expect, it } from 'vitest';
import type { PendingConfirmation, TabSnapshot } from '../../lib/messaging/agent-messages';
import { createQuestionsSlice } from './create-questions-slice';
import { createTabSlice } from './create-tab-slice';
import { fakeAgentClient } from './fake-agent-client';

const question = (id: string, masked = true) => ({ id, callId: `c-${id}`, toolName: 'pay', prompt: 'Pay?', masked }) as PendingConfirmation;
const snapshot = (confirmations: PendingConfirmation[], tabId = 1): TabSnapshot => ({
  tabId,
  messages: [],
  running: false,
  confirmations,
  tools: [],
  toolsKnown: true,
});

function setup() {
  const client = fakeAgentClient();
  const tabs = createTabSlice(client);
  const questions = createQuestionsSlice(client, tabs);
  client.subscribe((event) => {
    tabs.receive(event);
    questions.receive(event);
  });
  tabs.follow(1, 'https://shop.test/');
  return { client, questions };
}

describe('createQuestionsSlice', () => {
  it('keeps revealed arguments only for an open, masked question of the followed tab', () => {
    const { client, questions } = setup();
    client.emit({ type: 'panel/tab', snapshot: snapshot([question('q1'), question('q2', false)]) });
    client.emit({ type: 'panel/revealed', tabId: 2, confirmationId: 'q1', input: 'other tab' });
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q2', input: 'not masked' });
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q9', input: 'not open' });
    expect(questions.revealed.value).toEqual({});
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q1', input: 'clear' });
    expect(questions.revealed.value).toEqual({ q1: 'clear' });
  });

  it('a question that closes, Hide, or another tab takes what was revealed along', () => {
    const { client, questions } = setup();
    client.emit({ type: 'panel/tab', snapshot: snapshot([question('q1'), question('q2')]) });
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q1', input: 'one' });
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q2', input: 'two' });
    questions.hide('q2');
    expect(questions.revealed.value).toEqual({ q1: 'one' });
    client.emit({ type: 'panel/tab', snapshot: snapshot([question('q1')], 2) });
    expect(questions.revealed.value).toEqual({ q1: 'one' });
    client.emit({ type: 'panel/tab', snapshot: snapshot([]) });
    expect(questions.revealed.value).toEqual({});
    client.emit({ type: 'panel/tab', snapshot: snapshot([question('q3')]) });
    client.emit({ type: 'panel/revealed', tabId: 1, confirmationId: 'q3', input: 'three' });
    questions.clear();
    expect(questions.revealed.value).toEqual({});
  });

  it('sends answers and Reveal for the followed tab, under the host-given id', () => {
    const { client, questions } = setup();
    questions.confirm('q1', 'allow-once');
    questions.reveal('q1');
    expect(client.sent).toEqual([
      { type: 'panel/confirm', tabId: 1, confirmationId: 'q1', answer: 'allow-once' },
      { type: 'panel/reveal', tabId: 1, confirmationId: 'q1' },
    ]);
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { createRef } from 'preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfirmationAnswer, PendingConfirmation } from '../../lib/messaging/agent-messages';
import { ConfirmActions } from './confirm-actions';

afterEach(cleanup);

const question = (allowAlways: boolean): PendingConfirmation => ({
  id: 'q-7f3a',
  callId: 'c1',
  toolName: 'add_to_cart',
  origin: 'https://shop.example',
  allowAlways,
  prompt: 'Run add_to_cart?',
});

describe('ConfirmActions', () => {
  it('answers by the host’s id for the question, with each of the three answers', () => {
    const answers: [string, ConfirmationAnswer][] = [];
    render(<ConfirmActions confirmation={question(true)} onConfirm={(id, answer) => answers.push([id, answer])} />);
    fireEvent.click(screen.getByRole('button', { name: 'Allow once' }));
    fireEvent.click(screen.getByRole('button', { name: 'Always on this site' }));
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    expect(answers).toEqual([
      ['q-7f3a', 'allow-once'],
      ['q-7f3a', 'allow-always'],
      ['q-7f3a', 'deny'],
    ]);
  });

  it('offers no "Always" for a tool that asks every time', () => {
    render(<ConfirmActions confirmation={question(false)} onConfirm={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Always on this site' })).toBeNull();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Allow once', 'Deny']);
  });

  it('hands the Allow once button to a view that focuses new questions', () => {
    const allow = createRef<HTMLButtonElement>();
    render(<ConfirmActions confirmation={question(true)} onConfirm={() => {}} allowRef={allow} />);
    expect(allow.current?.textContent).toBe('Allow once');
  });
});

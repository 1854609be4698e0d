// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { scanForms } from './scan-forms';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('scanForms', () => {
  it('reads each form’s tool attributes and the fields an agent could fill', () => {
    document.body.innerHTML = `
      <form id="contact" toolname="send_message" tooldescription="Sends a message." toolautosubmit>
        <label>Message <textarea name="message"></textarea></label>
        <input placeholder="Phone">
        <select name="topic" toolparamdescription="What it is about"><option>A</option></select>
        <input type="hidden" name="token" value="x">
        <input type="hidden" name="ref" toolparamdescription="Where the person came from">
        <input name="off" disabled>
        <button type="submit">Send</button>
      </form>
      <form name="search"><input name="q" aria-label="Search"></form>
      <form><input type="submit"></form>`;
    expect(scanForms(document).forms).toEqual([
      {
        label: '#contact',
        toolname: 'send_message',
        hasDescription: true,
        autosubmit: true,
        fields: [
          { name: 'message', type: 'textarea', label: 'Message', described: true },
          { name: '', type: 'text', label: 'Phone', described: false },
          { name: 'topic', type: 'select', label: '', described: true },
          { name: 'ref', type: 'hidden', label: '', described: true },
        ],
      },
      {
        label: 'form "search"',
        hasDescription: false,
        autosubmit: false,
        fields: [{ name: 'q', type: 'text', label: 'Search', described: false }],
      },
      { label: 'form 3', hasDescription: false, autosubmit: false, fields: [] },
    ]);
  });

  it('cleans page text and keeps it short', () => {
    document.body.innerHTML = `<form id="a\u200Bb" toolname="x\u202Ey" tooldescription="  "><input name="${'n'.repeat(300)}"></form>`;
    const [form] = scanForms(document).forms;
    expect(form.label).toBe('#ab');
    expect(form.toolname).toBe('xy');
    expect(form.hasDescription).toBe(false);
    expect(form.fields[0].name.length).toBeLessThanOrEqual(120);
  });
});

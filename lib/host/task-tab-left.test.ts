import { describe, expect, it } from 'vitest';
import { taskTabLeft } from './task-tab-left';

describe('taskTabLeft', () => {
  it('names the site the tab was added on and why it left', () => {
    const tab = { tabId: 4, site: 'https://shop.example' };
    expect(taskTabLeft(tab, 'moved', 'https://other.example').message).toBe(
      'shop.example left the task: the tab moved to other.example. Its tools are no longer offered, and nothing more runs there.',
    );
    expect(taskTabLeft(tab, 'closed')).toMatchObject({ tabId: 4, site: tab.site, reason: 'closed' });
    expect(taskTabLeft(tab, 'closed').message).toMatch(/left the task: the tab was closed\./);
    expect(taskTabLeft(tab, 'removed').message).toMatch(/left the task: you removed it\./);
  });
});

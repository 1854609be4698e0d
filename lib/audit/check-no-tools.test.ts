import { describe, expect, it } from 'vitest';
import { panelTool } from '../testing/audit-tools';
import type { FrameForms, ScannedForm } from './audit-types';
import { checkNoTools } from './check-no-tools';

const frame = (...forms: ScannedForm[]): FrameForms[] => [{ frameId: 0, origin: 'https://plain.example', forms }];
const form = (patch: Partial<ScannedForm> = {}): ScannedForm => ({
  label: '#search',
  hasDescription: false,
  autosubmit: false,
  fields: [],
  ...patch,
});
const message = (input: Parameters<typeof checkNoTools>[0]) => checkNoTools(input).map((f) => f.message);

describe('checkNoTools', () => {
  it('says plainly that a page has no tools, with where to start', () => {
    expect(checkNoTools({ tools: [], forms: frame() })).toEqual([
      {
        rule: 'page/no-tools',
        severity: 'info',
        message:
          'This page offers agents no WebMCP tools: no frame registered one, by script or with a <form toolname>. It has no forms either.',
        why: 'An agent uses a page through its tools; without them it can only click and type, which breaks easily.',
        fix: expect.stringMatching(
          /^Start with the WebMCP spec \(https:\/\/webmachinelearning\.github\.io\/webmcp\/\): register a tool with document\.modelContext\.registerTool.*demo\/tools\.js.*navigator\.modelContext/,
        ),
      },
    ]);
  });

  it('counts the forms it saw, and points at the form findings when a toolname did not make a tool', () => {
    expect(message({ tools: [], forms: frame(form(), form({ label: '#login' })) })).toEqual([
      'This page offers agents no WebMCP tools: no frame registered one, by script or with a <form toolname>. It has 2 forms, none with a toolname.',
    ]);
    expect(message({ tools: [], forms: frame(form({ toolname: 'report_bug' })) })).toEqual([
      'This page offers agents no WebMCP tools: no frame registered one, by script or with a <form toolname>. It has 1 form; 1 with a toolname did not become a tool (see the form findings).',
    ]);
    expect(message({ tools: [] })).toEqual([
      'This page offers agents no WebMCP tools: no frame registered one, by script or with a <form toolname>.',
    ]);
  });

  it('finds nothing when the page has tools, even ones the agent does not get', () => {
    expect(checkNoTools({ tools: [panelTool()] })).toEqual([]);
    expect(
      checkNoTools({ tools: [], dropped: [{ count: 2, reason: 'not-delegated', note: '2 tools in a frame of maps.example.' }] }),
    ).toEqual([]);
  });
});

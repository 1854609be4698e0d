import { describe, expect, it } from 'vitest';
import { measureToolRecall } from '../../lib/evals/measure-tool-recall';
import { bfclLiveMultiple, corpusSites, keptOutMisses, keptOutSites, partOf, tunedSites } from './corpus';

describe('the ranker corpus', () => {
  it('splits by site as its README records: the sites tuned before always tuned, the rest by the hash of the id', () => {
    expect(partOf('demo-shop')).toBe('tuned');
    expect(partOf('clinicnow')).toBe('tuned');
    // Fixed by SHA-256 of the id (README.md): these must never move.
    expect(['ripulio-gmail', 'google-travel', 'postbox'].map(partOf)).toEqual(['tuned', 'tuned', 'tuned']);
    expect(['ripulio-amazon', 'google-events', 'medirx'].map(partOf)).toEqual(['kept-out', 'kept-out', 'kept-out']);
    const all = corpusSites().map((s) => s.id);
    expect(new Set(all).size).toBe(all.length);
    expect([...tunedSites(), ...keptOutSites()].map((s) => s.id).sort()).toEqual([...all].sort());
  });

  it('holds sites whose every request names tools the site has, and more than 100 kept-out tools', () => {
    // measureToolRecall throws on a case expecting a tool its site lacks.
    expect(measureToolRecall(corpusSites(), { pooled: false, ks: [8] }).expected).toBeGreaterThan(300);
    expect(keptOutSites().reduce((n, s) => n + s.tools.length, 0)).toBeGreaterThan(100);
    for (const site of corpusSites()) expect(new Set(site.tools.map((t) => t.name)).size, site.id).toBe(site.tools.length);
  });

  it('lists kept-out misses only, each ranked below k, fewer at 8 than at 4', () => {
    const kept = new Set(keptOutSites().map((s) => s.id));
    for (const k of [4, 8] as const) {
      for (const miss of keptOutMisses(k)) {
        expect(kept.has(miss.site)).toBe(true);
        expect(miss.rank).toBeGreaterThan(k);
      }
    }
    expect(keptOutMisses(8).length).toBeLessThanOrEqual(keptOutMisses(4).length);
  });

  it('reads BFCL live_multiple: each row with its functions and the ones it needs among them', () => {
    const rows = bfclLiveMultiple();
    expect(rows).toHaveLength(1053);
    for (const row of rows)
      for (const name of row.expected)
        expect(
          row.tools.map((t) => t.name),
          row.id,
        ).toContain(name);
  });
});

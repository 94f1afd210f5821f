import { describe, expect, inject, it } from 'vitest';
import { runBench } from '../bench/harness';
import { renderReport } from '../bench/report';

// `pnpm bench` measures; the suite only keeps its harness from rotting: it starts the
// service on a fresh database, seeds it, runs one short scenario (sequential recalls and
// searches) at the smallest scale and renders the report. Every scenario at every scale
// is `pnpm bench [scenario…] --scale smoke|small|…` (docs/benchmarks.md).
describe('pnpm bench (smoke run)', () => {
  it('starts, runs the recall scenario with zero errors and reports its figures', async () => {
    const result = await runBench({ scenarios: ['recall'], scale: 'smoke', databaseServerUrl: inject('databaseServerUrl') });
    expect(result.reports.map((report) => report.scenario)).toEqual(['recall']);
    const [recall] = result.reports;
    expect(recall!.measurements.map((measurement) => measurement.name)).toHaveLength(2);
    for (const measurement of recall!.measurements) {
      expect(measurement.errors, measurement.name).toBe(0);
      expect(measurement.requests, measurement.name).toBeGreaterThan(0);
      expect(Number.isFinite(measurement.p50) && Number.isFinite(measurement.throughput), measurement.name).toBe(true);
    }
    for (const figure of recall!.ratios) expect(Number.isFinite(figure.value), figure.name).toBe(true);
    expect(renderReport(result.reports)).toContain('## recall');
  }, 60_000);
});

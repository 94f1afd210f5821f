import { describe, expect, inject, it } from 'vitest';
import { runBench } from '../bench/harness';
import { renderReport } from '../bench/report';

// `pnpm bench` measures; the suite only keeps its harness from rotting: it starts the
// service on a fresh database, seeds it, runs short scenarios (sequential recalls and
// searches; search by meaning with the local model) at the smallest scale and renders the report. Every scenario at every scale
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

  it('runs the semantic scenario (the local model) with zero errors, every figure finite', async () => {
    const result = await runBench({ scenarios: ['semantic'], scale: 'smoke', databaseServerUrl: inject('databaseServerUrl') });
    const [semantic] = result.reports;
    expect(semantic!.scenario).toBe('semantic');
    // Per owner size: lexical, hybrid on new queries, hybrid on repeated ones; then saves both ways, at a steady rate, and the lag.
    expect(semantic!.measurements).toHaveLength(11);
    for (const measurement of semantic!.measurements) {
      expect(measurement.errors, measurement.name).toBe(0);
      expect(measurement.requests, measurement.name).toBeGreaterThan(0);
      expect(Number.isFinite(measurement.p95), measurement.name).toBe(true);
    }
    for (const figure of semantic!.ratios) expect(Number.isFinite(figure.value), figure.name).toBe(true);
    expect(semantic!.ratios.find((figure) => figure.name === 'embedding failures')!.value).toBe(0);
  }, 180_000);
});

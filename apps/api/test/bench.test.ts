import { describe, expect, inject, it } from 'vitest';
import { SCENARIOS, runBench } from '../bench/harness';
import { renderReport } from '../bench/report';

// The benchmark harness at its smallest scale, so it never rots: every scenario runs, no
// operation fails, and every figure is computed (the values are for `pnpm bench`).
describe('pnpm bench (smoke scale)', () => {
  it('runs every scenario with zero errors and computes every figure', async () => {
    const result = await runBench({ scenarios: [...SCENARIOS], scale: 'smoke', databaseServerUrl: inject('databaseServerUrl') });
    expect(result.reports.map((report) => report.scenario).sort()).toEqual([...SCENARIOS].sort());
    for (const report of result.reports) {
      for (const measurement of report.measurements) {
        expect(measurement.errors, `${report.scenario}: ${measurement.name}`).toBe(0);
        expect(measurement.requests, `${report.scenario}: ${measurement.name}`).toBeGreaterThan(0);
        expect(Number.isFinite(measurement.p50) && Number.isFinite(measurement.throughput)).toBe(true);
      }
      for (const figure of report.ratios) expect(Number.isFinite(figure.value), `${report.scenario}: ${figure.name}`).toBe(true);
    }
    const ingestion = result.reports.find((report) => report.scenario === 'ingestion')!;
    expect(ingestion.ratios.find((figure) => figure.name.startsWith('events lost'))!.value).toBe(0);
    expect(renderReport(result.reports)).toContain('## api-vs-raw');
  }, 240_000);
});

import type { Measurement } from './load';
import type { ScenarioReport } from './scenarios/context';

function table(headers: string[], rows: (string | number)[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells: (string | number)[]) => cells.map((cell, i) => String(cell).padEnd(widths[i]!)).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export function measurementTable(measurements: Measurement[]): string {
  return table(
    ['workload', 'conc', 'ops', 'ops/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'],
    measurements.map((m) => [m.name, m.concurrency, m.requests, m.throughput, m.p50, m.p95, m.p99, m.errors]),
  );
}

/** Figures reported for information ("—", "none …") have no target to meet or miss. */
const hasTarget = (r: { target: string }) => r.target !== '—' && !r.target.startsWith('none');

/** The whole run as text: one block per scenario, measurements then figures against targets. */
export function renderReport(reports: ScenarioReport[]): string {
  return reports
    .map((report) => {
      const parts = [`## ${report.scenario}`];
      if (report.measurements.length > 0) parts.push(measurementTable(report.measurements));
      if (report.ratios.length > 0) {
        parts.push(table(['figure', 'value', 'target', ''], report.ratios.map((r) => [r.name, r.value, r.target, !hasTarget(r) ? '' : r.met ? 'met' : 'MISSED'])));
      }
      for (const note of report.notes) parts.push(`note: ${note}`);
      return parts.join('\n\n');
    })
    .join('\n\n');
}

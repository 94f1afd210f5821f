import { rssOf, startService } from '../service';
import { ratio, type BenchContext, type ScenarioReport } from './context';

/** Scenario 5: process start to /readyz 200, and resident memory idle and under load. */
export async function startup(ctx: BenchContext): Promise<ScenarioReport> {
  const times: number[] = [];
  let idle = 0;
  for (let i = 0; i < ctx.scale.startups; i++) {
    const service = await startService(ctx.serviceEnv);
    times.push(service.startupMs);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    idle = Math.max(idle, rssOf(service.pid));
    await service.stop();
  }
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  const peak = Math.max(0, ...Object.values(ctx.peakRss));
  return {
    scenario: 'startup',
    measurements: [],
    ratios: [
      ratio(`start to /readyz (ms, median of ${times.length})`, Math.round(median), '≤ 1,500', median <= 1500),
      ratio('RSS idle (MB)', mb(idle), '—', true),
      ratio('RSS peak under load (MB)', mb(peak), '≤ 250', peak > 0 && peak <= 250 * 1024 * 1024),
    ],
    notes: [
      `start-up runs: ${times.map((t) => Math.round(t)).join(', ')} ms (node launching the bundle, database already migrated)`,
      `RSS peak by scenario: ${Object.entries(ctx.peakRss).map(([scenario, bytes]) => `${scenario} ${mb(bytes)} MB`).join(', ') || 'no load ran'}`,
    ],
  };
}

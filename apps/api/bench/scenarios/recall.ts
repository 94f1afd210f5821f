import { sequential, type Measurement } from '../load';
import { ratio, type BenchContext, type ScenarioReport } from './context';

const DIRECTORIES = ['/home/bench/shop', '/home/bench/api', '/home/bench/docs', '/home/bench/infra', '/home/bench/app'];
const PAST_SESSIONS = 50;

/**
 * Scenario: recall into a session (POST /v1/recall), as an agent hook calls it — at session
 * start (previous sessions in the directory, the note, a project search) and per prompt
 * (a search, the session's earlier recalls). Sequential, so the figure is the server's
 * time without queueing.
 */
export async function recallLatency(ctx: BenchContext): Promise<ScenarioReport> {
  const headers = { authorization: `Bearer ${ctx.probe.key}`, 'content-type': 'application/json' };
  // The probe's past sessions: a prompt and a reply each, spread over a few directories.
  const events = Array.from({ length: PAST_SESSIONS }, (_, i) => {
    const session = { session_id: `bench-past-${i}`, cwd: DIRECTORIES[i % DIRECTORIES.length] };
    return [
      { harness: 'claude-code', payload: { ...session, hook_event_name: 'UserPromptSubmit', prompt: ctx.queries[i % ctx.queries.length] } },
      { harness: 'claude-code', payload: { ...session, hook_event_name: 'Stop', last_assistant_message: ctx.probe.texts[i % ctx.probe.texts.length] } },
    ];
  }).flat();
  const seeded = await fetch(`${ctx.service.url}/v1/hooks/batch`, { method: 'POST', headers, body: JSON.stringify({ events }) });
  if (seeded.status !== 200) throw new Error(`seeding past sessions failed: ${seeded.status}`);

  const recall = async (body: Record<string, unknown>) => {
    const response = await fetch(`${ctx.service.url}/v1/recall`, { method: 'POST', headers, body: JSON.stringify({ harness: 'claude-code', ...body }) });
    const answer = (await response.json()) as { context?: string };
    return response.status === 200 && typeof answer.context === 'string';
  };
  const count = ctx.scale.sequential;
  // A session starts, then takes four prompts: the later ones skip what it was already shown.
  const run = `${Date.now().toString(36)}`;
  const sessionOf = (i: number) => `bench-recall-${run}-${Math.floor(i / 5)}`;
  const measured: Measurement = await sequential('recall (session start, then 4 prompts)', count, (i) =>
    recall(
      i % 5 === 0
        ? { session_id: sessionOf(i), trigger: 'session_start', cwd: DIRECTORIES[Math.floor(i / 5) % DIRECTORIES.length] }
        : { session_id: sessionOf(i), trigger: 'prompt', prompt: ctx.queries[i % ctx.queries.length], cwd: DIRECTORIES[Math.floor(i / 5) % DIRECTORIES.length] },
    ),
  );
  // The same machine's plain search, for a figure that does not move with the machine's load.
  const searched = await sequential('search (GET /v1/memory/search, limit 20)', count, async (i) => {
    const response = await fetch(`${ctx.service.url}/v1/memory/search?q=${encodeURIComponent(ctx.queries[i % ctx.queries.length]!)}&limit=20`, { headers });
    await response.arrayBuffer();
    return response.status === 200;
  });
  return {
    scenario: 'recall',
    measurements: [measured, searched],
    ratios: [
      ratio('recall p95 (ms, sequential)', measured.p95, '≤ 100', measured.p95 <= 100),
      ratio('recall ÷ search p50', measured.p50 / searched.p50, '—', true),
    ],
    notes: [`probe: ${ctx.scale.perTenant} memories and ${PAST_SESSIONS} past sessions in ${DIRECTORIES.length} directories; every fifth request starts a session.`],
  };
}

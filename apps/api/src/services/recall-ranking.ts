/**
 * Recall's order of the memories that matched (docs/hooks.md#recall-ranking-and-pins): relevance, nudged
 * towards what is fresh and what agents use, with the constants of RECALL_RANKING. Pure,
 * so the formula is tested against its plain statement without a database.
 */
import { RECALL_RANKING } from '../limits';

export interface RankableMemory {
  /** The search score, 0–1. */
  score: number;
  /** ISO 8601. */
  updatedAt: string;
  useCount: number;
  lastUsedAt: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** 2^(−ms / half-life) = e^(−ms · DECAY). */
const DECAY = Math.LN2 / (RECALL_RANKING.halfLifeDays * DAY_MS);
const USE_SCALE = 1 / Math.log1p(RECALL_RANKING.useSaturation);

/** What a memory's relevance is multiplied by: 1 (old, never used) to 1 + recencyWeight + useWeight. */
export function recallBoost(memory: Omit<RankableMemory, 'score'>, nowMs: number): number {
  // A time ahead of the clock (another process's) counts as now.
  const recency = Math.exp(-Math.max(0, nowMs - Date.parse(memory.updatedAt)) * DECAY);
  let use = 0;
  if (memory.useCount > 0 && memory.lastUsedAt !== null) {
    const count = Math.min(1, Math.log1p(memory.useCount) * USE_SCALE);
    use = count * Math.exp(-Math.max(0, nowMs - Date.parse(memory.lastUsedAt)) * DECAY);
  }
  return 1 + RECALL_RANKING.recencyWeight * recency + RECALL_RANKING.useWeight * use;
}

/** The memories by relevance × boost, best first; equal ones keep their order (the search's). */
export function rankForRecall<T extends RankableMemory>(memories: readonly T[], now: Date): T[] {
  const nowMs = now.getTime();
  return memories
    .map((memory, index) => ({ memory, index, rank: memory.score * recallBoost(memory, nowMs) }))
    .sort((x, y) => y.rank - x.rank || x.index - y.index)
    .map(({ memory }) => memory);
}

import { describe, expect, it } from 'vitest';
import { isId, newId } from '../src/ids';

describe('newId', () => {
  it('makes well-formed, unique ids that sort by creation time', () => {
    const at = Date.UTC(2026, 10, 29, 12);
    const ids = Array.from({ length: 20_000 }, (_, i) => newId('memory', new Date(at + Math.floor(i / 100))));
    expect(ids.every((id) => isId('memory', id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws the random part evenly from all 32 characters', () => {
    const counts = new Map<string, number>();
    // A new millisecond for every id, so each one draws a fresh random part.
    for (let i = 0; i < 4_000; i++) {
      for (const char of newId('memory', new Date(Date.UTC(2027, 0, 1) + i)).slice(-16)) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(counts.size).toBe(32);
    // 64,000 draws: 2,000 expected per character.
    for (const count of counts.values()) expect(count).toBeGreaterThan(1_700);
    for (const count of counts.values()) expect(count).toBeLessThan(2_300);
  });
});

/**
 * The text a recall puts into an agent's session: the memories that fit the budget, each
 * cited by id, and a "last time in this project" note. Pure, so the budget rules are
 * tested without a database.
 */
import { RECALL_LIMITS } from '../limits';
import { truncateText } from '../text';


export interface RecallCandidate {
  id: string;
  scope: 'user' | 'org';
  content: string;
  score: number;
  pinned?: boolean;
}

export interface ShownMemory {
  id: string;
  scope: 'user' | 'org';
  score: number;
  truncated: boolean;
  /** Present, and true, for a pinned memory. */
  pinned?: true;
}

export interface LastSessionNote {
  workstreamId: string;
  lastEventAt: Date;
  prompt: string | null;
  reply: string | null;
}

export interface ComposedRecall {
  text: string;
  memories: ShownMemory[];
  note: LastSessionNote | null;
}

const HEADER = 'Memory Bank recalled (cite by id; getMemoryById reads one in full, deleteMemoryById removes a wrong one):';

const chars = (text: string) => Array.from(text).length;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

const cut = (text: string, max: number) => truncateText(text, max);

function noteLines(note: LastSessionNote, budget: number): string | null {
  const when = note.lastEventAt.toISOString().slice(0, 16).replace('T', ' ');
  const head = `Last time in this project (${when} UTC, workstream ${note.workstreamId}):`;
  const parts = [note.prompt === null ? null : ['- You asked: ', oneLine(note.prompt)], note.reply === null ? null : ['- The reply: ', oneLine(note.reply)]].filter(
    (part): part is string[] => part !== null && part[1] !== '',
  );
  if (parts.length === 0) return null;
  let room = budget - chars(head) - parts.reduce((sum, [label]) => sum + 1 + chars(label!), 0);
  if (room < parts.length * 20) return null;
  const lines = [head];
  parts.forEach(([label, text], i) => {
    const share = Math.floor(room / (parts.length - i));
    const piece = cut(text!, share).text;
    room -= chars(piece);
    lines.push(label + piece);
  });
  return lines.join('\n');
}

/**
 * Fills `budget` characters: the note first takes what it needs up to its share, then
 * the memories in the order given (pinned ones first at session start, then by rank), each whole or cut (never below minMemoryChars), each on
 * one line as `- [mem_…] content` (`(shared)` marks org memories).
 */
export function composeRecall(candidates: readonly RecallCandidate[], note: LastSessionNote | null, budget: number): ComposedRecall {
  const noteText = note ? noteLines(note, Math.floor(budget * RECALL_LIMITS.noteShare)) : null;
  let room = budget - (noteText === null ? 0 : chars(noteText) + 2);
  const lines: string[] = [];
  const memories: ShownMemory[] = [];
  if (candidates.length > 0 && room > chars(HEADER) + 1) {
    room -= chars(HEADER);
    for (const candidate of candidates) {
      const prefix = `\n- [${candidate.id}] ${candidate.scope === 'org' ? '(shared) ' : ''}`;
      const available = Math.min(room - chars(prefix), Math.floor(budget * RECALL_LIMITS.memoryShare));
      const content = oneLine(candidate.content);
      if (available < Math.min(RECALL_LIMITS.minMemoryChars, chars(content))) continue;
      const piece = cut(content, available);
      lines.push(prefix + piece.text);
      room -= chars(prefix) + chars(piece.text);
      memories.push({ id: candidate.id, scope: candidate.scope, score: candidate.score, truncated: piece.truncated, ...(candidate.pinned ? { pinned: true as const } : {}) });
    }
  }
  const blocks = [memories.length > 0 ? HEADER + lines.join('') : null, noteText].filter((block): block is string => block !== null);
  return { text: blocks.join('\n\n'), memories, note: noteText === null ? null : note };
}

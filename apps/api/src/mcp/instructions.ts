/**
 * The server `instructions` an MCP client hands its model at connection: when to reach for
 * the memory, when to write to it, and what sharing means. Per-tool detail lives in each
 * route's OpenAPI description (the tool's description), not here.
 */
export const SERVER_INSTRUCTIONS = [
  'Memory Bank is long-term memory shared across sessions: facts, decisions and preferences saved earlier by you, other agents of this user, or their team.',
  'Before answering a question that may depend on earlier work (project conventions, past decisions, names, preferences), search first with getMemorySearch (a few keywords or a short question); read a hit in full with getMemoryById.',
  'Save with postMemory when the user states a durable fact, preference or decision, or asks you to remember something: one self-contained fact per memory, with tags, and with contexts (a short snippet of where it came from) so it can be cited later. Do not save secrets or passing chatter.',
  'When an answer relies on a memory, cite it by id (mem_…) and, when useful, its context snippet, so the user can check or delete it.',
  'Memories saved with scope "org" are visible to everyone in the team; the default "user" scope is private to this user. Use "org" only for knowledge meant for the whole team.',
  'Correct a stale memory with patchMemoryById rather than saving a contradicting one; delete one with deleteMemoryById only when the user asks or it is wrong.',
].join('\n');

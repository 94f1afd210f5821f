import { createHash } from 'node:crypto';

/**
 * The text two saves are compared by to find a duplicate: Unicode NFC, case folded
 * (upper then lower case, so `ß` and `SS` fold alike), runs of white space as one space,
 * trimmed.
 */
export function normalisedContent(content: string): string {
  return content.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/** SHA-256 (hex) of the normalised content: `memory.content_key`. */
export function contentKeyOf(content: string): string {
  return createHash('sha256').update(normalisedContent(content)).digest('hex');
}

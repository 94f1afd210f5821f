declare module 'popular-english-words/words.js' {
  /** About 225,000 English words, most frequent first. */
  export const words: string[];
}

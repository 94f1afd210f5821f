/** The part of madge 8's API the boundaries test uses (it ships no types). */
declare module 'madge' {
  interface MadgeResult {
    /** Each module (relative to baseDir) with the modules it imports. */
    obj(): Record<string, string[]>;
    circular(): string[][];
  }
  interface MadgeConfig {
    baseDir?: string;
    fileExtensions?: string[];
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}

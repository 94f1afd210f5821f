import { int8Norm } from './int8';

/** Bytes counted per memory id held (the string and the map entry), besides its row. */
const ID_BYTES = 96;
/** Rows a new matrix has room for at least. */
const MIN_CAPACITY = 64;

/**
 * One owner's vectors in memory: int8 rows in a SharedArrayBuffer the worker thread scans
 * without a copy, each row's norm beside it. Rows are appended and never move: a deleted or
 * replaced memory's row is emptied (norm 0, id null) where it stands, so a scan in flight
 * still maps its row numbers to the right ids. Growing copies into a larger buffer; a scan
 * holds on to the old one. Too many emptied rows and the owner is loaded again whole.
 */
export class OwnerMatrix {
  rows: SharedArrayBuffer;
  norms: SharedArrayBuffer;
  private rowView: Int8Array;
  private normView: Float32Array;
  /** Row → memory id; null where emptied. */
  readonly ids: (string | null)[] = [];
  private readonly rowOf = new Map<string, number>();
  /** The newest embedded_at read (the database's text): the next delta load starts a margin before it. */
  watermark: string | null = null;
  /** When it was loaded whole and last brought up to date (performance.now()). */
  readonly loadedAt: number;
  checkedAt: number;
  /** New vectors of its org were stored in this process since it was last brought up to date. */
  stale = false;

  constructor(
    readonly dims: number,
    capacity: number,
    now: number,
  ) {
    const rows = Math.max(MIN_CAPACITY, capacity);
    this.rows = new SharedArrayBuffer(rows * dims);
    this.norms = new SharedArrayBuffer(rows * 4);
    this.rowView = new Int8Array(this.rows);
    this.normView = new Float32Array(this.norms);
    this.loadedAt = now;
    this.checkedAt = now;
  }

  /** Rows in use, emptied ones included (what a scan reads). */
  get count(): number {
    return this.ids.length;
  }

  /** Memories it holds. */
  get size(): number {
    return this.rowOf.size;
  }

  get bytes(): number {
    return this.rows.byteLength + this.norms.byteLength + this.ids.length * ID_BYTES;
  }

  /** Whether emptied rows are so many that loading the owner again whole is cheaper to scan. */
  get fragmented(): boolean {
    return this.ids.length > MIN_CAPACITY && this.rowOf.size * 2 < this.ids.length;
  }

  /** Sets a memory's vector (a row of `dims` bytes read from the database); a vector of another size is skipped. */
  put(memoryId: string, vector: Uint8Array, embeddedAt: string): void {
    if (this.watermark === null || embeddedAt > this.watermark) this.watermark = embeddedAt;
    if (vector.length !== this.dims) return;
    const values = new Int8Array(vector.buffer, vector.byteOffset, vector.byteLength);
    const existing = this.rowOf.get(memoryId);
    if (existing !== undefined && this.rowMatches(existing, values)) return;
    this.remove(memoryId);
    if (this.ids.length * this.dims >= this.rows.byteLength) this.grow();
    const row = this.ids.length;
    this.rowView.set(values, row * this.dims);
    this.normView[row] = int8Norm(values);
    this.ids.push(memoryId);
    this.rowOf.set(memoryId, row);
  }

  /** Empties a memory's row (deleted, or its text changed). */
  remove(memoryId: string): void {
    const row = this.rowOf.get(memoryId);
    if (row === undefined) return;
    this.normView[row] = 0;
    this.ids[row] = null;
    this.rowOf.delete(memoryId);
  }

  private rowMatches(row: number, values: Int8Array): boolean {
    const base = row * this.dims;
    for (let d = 0; d < this.dims; d++) if (this.rowView[base + d] !== values[d]) return false;
    return true;
  }

  private grow(): void {
    const capacity = Math.max(MIN_CAPACITY, this.ids.length * 2);
    const rows = new SharedArrayBuffer(capacity * this.dims);
    const norms = new SharedArrayBuffer(capacity * 4);
    new Int8Array(rows).set(this.rowView);
    new Float32Array(norms).set(this.normView);
    this.rows = rows;
    this.norms = norms;
    this.rowView = new Int8Array(rows);
    this.normView = new Float32Array(norms);
  }
}

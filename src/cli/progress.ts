/**
 * A run's progress on a terminal's stderr: silent for its first second, then
 * one line rewritten in place (at most ten times a second) and erased at the
 * end, so that what is left on the screen is the report alone.
 */
export class Progress {
  private done = 0;
  private drawn = false;
  private lastDrawn = 0;
  private readonly start: number;
  private readonly now: () => number;

  constructor(
    /** Undefined when stderr is not a terminal: nothing is written. */
    private readonly write: ((text: string) => void) | undefined,
    private readonly total: number,
    private readonly label: string,
    options: { start?: number; now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.start = options.start ?? this.now();
  }

  advance(count: number): void {
    this.done += count;
    if (this.write === undefined) return;
    const t = this.now();
    if (t - this.start < 1000 || t - this.lastDrawn < 100) return;
    this.lastDrawn = t;
    this.drawn = true;
    this.write(`\r\u001b[K${this.label} ${this.done}/${this.total} object(s)…`);
  }

  /** Erases the line, if one was drawn. */
  clear(): void {
    if (this.drawn) this.write?.("\r\u001b[K");
    this.drawn = false;
  }
}

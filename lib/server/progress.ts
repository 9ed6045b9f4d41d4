// Progress of slow start-up work (the dev server compiling its first pages, `npm run dev` waiting for a
// service), said every few seconds so a person watching the console is never left with a long silence:
// what is pending and for how long. Anything else said meanwhile (`heard`) counts as news, so the line
// is written only after `everyMs` of quiet.

export interface ProgressOptions {
  /** How long a quiet spell lasts before the pending work is said again (default 5 s). */
  everyMs?: number;
  /** The clock, in milliseconds. */
  now?: () => number;
}

export class Progress {
  private readonly pending = new Map<string, number>();
  private readonly everyMs: number;
  private readonly now: () => number;
  private lastHeard: number;
  private timer: NodeJS.Timeout | null = null;

  /** `say` gets the pending work and its time so far, e.g. "/ (15 s), /vault/… (10 s)". */
  constructor(
    private readonly say: (pending: string) => void,
    options: ProgressOptions = {},
  ) {
    this.everyMs = options.everyMs ?? 5_000;
    this.now = options.now ?? Date.now;
    this.lastHeard = this.now();
  }

  /** `label` is pending from now; the function returned ends it. */
  begin(label: string): () => void {
    const key = this.pending.has(label) ? `${label} #${this.pending.size + 1}` : label;
    this.pending.set(key, this.now());
    this.timer ??= setInterval(() => this.tick(), this.everyMs).unref();
    return () => {
      this.pending.delete(key);
      if (this.pending.size === 0 && this.timer !== null) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** Something else was said just now: the quiet spell starts again. */
  heard(): void {
    this.lastHeard = this.now();
  }

  private tick(): void {
    const now = this.now();
    if (this.pending.size === 0 || now - this.lastHeard < this.everyMs) {
      return;
    }
    this.lastHeard = now;
    this.say(
      [...this.pending]
        .map(([label, started]) => `${label} (${Math.round((now - started) / 1000)} s)`)
        .join(", "),
    );
  }
}

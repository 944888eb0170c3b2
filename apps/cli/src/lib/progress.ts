/** A one-line progress bar on stderr (redrawn in place on a TTY, sparse lines otherwise). */
export class ProgressBar {
  private lastLogged = -1;

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly enabled = true,
  ) {}

  update(done: number, suffix = ""): void {
    if (!this.enabled) return;
    const ratio = this.total === 0 ? 1 : Math.min(1, done / this.total);
    const width = 30;
    const filled = Math.round(ratio * width);
    const text = `[${"█".repeat(filled)}${"░".repeat(width - filled)}] ${done}/${this.total} ${Math.round(ratio * 100)}% ${suffix}`;
    if (this.stream.isTTY) {
      this.stream.write(`\r${text}\u001b[K`);
    } else if (Math.floor(ratio * 10) !== this.lastLogged) {
      this.lastLogged = Math.floor(ratio * 10);
      this.stream.write(`${text}\n`);
    }
  }

  finish(): void {
    if (this.enabled && this.stream.isTTY) this.stream.write("\n");
  }
}

/**
 * "Waiting for …" with the latest state, on stderr: one line redrawn in place on a TTY; elsewhere (CI, a pipe, a
 * log file) one line per state change (oclif's spinner there ran every update into one unterminated line).
 */
export class StatusWatch {
  private last: string | null = null;

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly enabled = true,
  ) {}

  update(state: string): void {
    if (!this.enabled || state === this.last) return;
    this.last = state;
    if (this.stream.isTTY) this.stream.write(`\r${this.label}… ${state}\u001b[K`);
    else this.stream.write(`${this.label}: ${state}\n`);
  }

  /** Ends the line with the final word (`failed` when the wait threw). */
  stop(state: string): void {
    if (!this.enabled) return;
    if (this.stream.isTTY) this.stream.write(`\r${this.label}… ${state}\u001b[K\n`);
    else if (state !== this.last) this.stream.write(`${this.label}: ${state}\n`);
    this.last = state;
  }
}

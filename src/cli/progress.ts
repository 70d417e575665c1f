/**
 * A one-line progress bar on standard error, drawn only when standard error is a terminal and the
 * work has already taken a while (a second), so quick runs, piped output and CI logs stay clean.
 */
export class Progress {
  readonly #label: string;
  readonly #total: number;
  readonly #enabled: boolean;
  readonly #afterMs: number;
  readonly #started = Date.now();
  #lastDrawn = 0;
  #lastPercent = -1;

  /** `total` in any unit (bytes, rows); `afterMs` before which nothing is drawn. */
  constructor(label: string, total: number, afterMs = 1_000) {
    this.#label = label;
    this.#total = total;
    this.#enabled = Boolean(process.stderr.isTTY) && total > 0;
    this.#afterMs = afterMs;
  }

  update(done: number): void {
    if (!this.#enabled) return;
    const now = Date.now();
    if (now - this.#started < this.#afterMs) return;
    const percent = Math.min(100, Math.floor((done / this.#total) * 100));
    if (percent === this.#lastPercent || now - this.#lastDrawn < 100) return;
    this.#lastPercent = percent;
    this.#lastDrawn = now;
    const width = 30;
    const filled = Math.round((percent / 100) * width);
    process.stderr.write(
      `\r${this.#label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}%`,
    );
  }

  done(): void {
    if (this.#enabled && this.#lastPercent >= 0) process.stderr.write('\r\x1b[K');
  }
}

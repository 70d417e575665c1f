/**
 * A one-line progress bar on standard error, drawn only when standard error is a terminal and the
 * work is large enough to be worth watching, so piped output and CI logs stay clean.
 */
export class Progress {
  readonly #label: string;
  readonly #total: number;
  readonly #enabled: boolean;
  #lastDrawn = 0;
  #lastPercent = -1;

  /** `total` in any unit (bytes, rows); `minTotal` below which nothing is drawn. */
  constructor(label: string, total: number, minTotal = 256 * 1024) {
    this.#label = label;
    this.#total = total;
    this.#enabled = Boolean(process.stderr.isTTY) && total >= minTotal;
  }

  update(done: number): void {
    if (!this.#enabled) return;
    const percent = Math.min(100, Math.floor((done / this.#total) * 100));
    const now = Date.now();
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

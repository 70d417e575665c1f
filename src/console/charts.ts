/**
 * Charts as SVG text, shared by the console page (in the browser) and the HTML eval reports (in
 * Node): plain functions of numbers to markup, no DOM, no library. Colours come from the theme's
 * CSS variables (`--c0` … `--c7`), so light and dark mode follow the page. Every chart is an
 * image with a text alternative (`role="img"`, `<title>`, `aria-label`) saying what it shows.
 */

/** A named series of values. */
export interface Series {
  readonly name: string;
  readonly values: readonly (number | null)[];
}

/** A line chart over shared x positions. */
export interface LineChartSpec {
  readonly title: string;
  readonly series: readonly Series[];
  /** Labels of the first and last x positions (e.g. `-5 min`, `now`). */
  readonly xLabels?: readonly [string, string];
  /** How y values are printed on the axis. */
  readonly yFormat?: (value: number) => string;
  readonly width?: number;
  readonly height?: number;
}

/** Escapes text for HTML and SVG. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const PAD = { left: 44, right: 8, top: 10, bottom: 22 };
const round = (n: number) => Math.round(n * 10) / 10;

/** A compact number: 1234 → `1.2k`, 0.5 → `0.5`. */
export function compact(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${round(value / 1e6)}M`;
  if (abs >= 1e3) return `${round(value / 1e3)}k`;
  if (abs >= 10 || Number.isInteger(value)) return String(Math.round(value));
  return String(Math.round(value * 100) / 100);
}

/** A "nice" upper bound for an axis whose largest value is `max`. */
function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= max) return step * magnitude;
  return 10 * magnitude;
}

/** A line chart, one line per series (gaps where a value is null), with a legend. */
export function lineChart(spec: LineChartSpec): string {
  const width = spec.width ?? 560;
  const height = spec.height ?? 180;
  const format = spec.yFormat ?? compact;
  const n = Math.max(...spec.series.map((s) => s.values.length), 2);
  const max = niceMax(
    Math.max(0, ...spec.series.flatMap((s) => s.values.filter((v): v is number => v !== null))),
  );
  const plotW = width - PAD.left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const x = (i: number) => round(PAD.left + (plotW * i) / (n - 1));
  const y = (v: number) => round(PAD.top + plotH - (plotH * v) / max);
  const grid = [0, 0.5, 1]
    .map((f) => {
      const gy = y(max * f);
      return (
        `<line class="grid" x1="${PAD.left}" x2="${width - PAD.right}" y1="${gy}" y2="${gy}"/>` +
        `<text class="axis" x="${PAD.left - 4}" y="${gy + 3}" text-anchor="end">${escapeHtml(format(max * f))}</text>`
      );
    })
    .join('');
  const lines = spec.series
    .map((s, k) => {
      let d = '';
      let pen = 'M';
      s.values.forEach((v, i) => {
        if (v === null) {
          pen = 'M';
          return;
        }
        d += `${pen}${x(i)} ${y(v)}`;
        pen = 'L';
      });
      // A point without a neighbour draws no line: a dot shows it.
      const dots = s.values
        .map((v, i) =>
          v !== null && (s.values[i - 1] ?? null) === null && (s.values[i + 1] ?? null) === null
            ? `<circle class="dot s${k % 8}" cx="${x(i)}" cy="${y(v)}" r="2.5"/>`
            : '',
        )
        .join('');
      return d === ''
        ? ''
        : `<path class="line s${k % 8}" d="${d}"><title>${escapeHtml(s.name)}</title></path>${dots}`;
    })
    .join('');
  const xAxis = spec.xLabels
    ? `<text class="axis" x="${PAD.left}" y="${height - 6}">${escapeHtml(spec.xLabels[0])}</text>` +
      `<text class="axis" x="${width - PAD.right}" y="${height - 6}" text-anchor="end">${escapeHtml(spec.xLabels[1])}</text>`
    : '';
  const summary = spec.series
    .map((s) => {
      const last = [...s.values].reverse().find((v) => v !== null);
      return `${s.name}: ${last === undefined || last === null ? 'no data' : format(last)}`;
    })
    .join('; ');
  return (
    `<figure class="chart"><svg viewBox="0 0 ${width} ${height}" role="img" ` +
    `aria-label="${escapeHtml(`${spec.title}. Latest: ${summary}`)}">` +
    `<title>${escapeHtml(spec.title)}</title>${grid}${lines}${xAxis}</svg>` +
    legend(spec.series.map((s) => s.name)) +
    '</figure>'
  );
}

/** The legend of a chart: a swatch and a name per series. */
export function legend(names: readonly string[]): string {
  if (names.length === 0) return '';
  return `<figcaption class="legend">${names
    .map((name, k) => `<span><i class="swatch s${k % 8}"></i>${escapeHtml(name)}</span>`)
    .join('')}</figcaption>`;
}

/** Horizontal bars, one per entry, largest first, with their values. */
export function barChart(
  title: string,
  entries: readonly (readonly [string, number])[],
  format: (value: number) => string = compact,
): string {
  const sorted = [...entries].sort((a, b) => b[1] - a[1]);
  if (sorted.length === 0) return `<p class="empty">${escapeHtml(title)}: nothing yet</p>`;
  const width = 360;
  const row = 22;
  const label = 130;
  const max = Math.max(...sorted.map(([, v]) => v), 1);
  const height = sorted.length * row + 4;
  const bars = sorted
    .map(([name, value], i) => {
      const w = round(((width - label - 50) * value) / max);
      const top = i * row + 2;
      return (
        `<text class="label" x="${label - 6}" y="${top + 14}" text-anchor="end">${escapeHtml(name)}</text>` +
        `<rect class="bar s${i % 8}" x="${label}" y="${top + 3}" width="${Math.max(w, 1)}" height="${row - 8}"/>` +
        `<text class="value" x="${label + Math.max(w, 1) + 4}" y="${top + 14}">${escapeHtml(format(value))}</text>`
      );
    })
    .join('');
  const alt = sorted.map(([name, v]) => `${name} ${format(v)}`).join(', ');
  return (
    `<figure class="chart"><svg viewBox="0 0 ${width} ${height}" role="img" ` +
    `aria-label="${escapeHtml(`${title}: ${alt}`)}"><title>${escapeHtml(title)}</title>${bars}</svg></figure>`
  );
}

/** A curve of points (x and y in [0, 1]), such as quality against the share of strong calls. */
export function curveChart(spec: {
  readonly title: string;
  readonly xTitle: string;
  readonly yTitle: string;
  readonly curves: readonly { name: string; points: readonly (readonly [number, number])[] }[];
  readonly yRange?: readonly [number, number];
}): string {
  const width = 520;
  const height = 300;
  const pad = { left: 52, right: 12, top: 12, bottom: 40 };
  const [y0, y1] = spec.yRange ?? [0, 1];
  const span = y1 - y0 || 1;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const x = (v: number) => round(pad.left + plotW * v);
  const y = (v: number) => round(pad.top + plotH - (plotH * (v - y0)) / span);
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (f) =>
        `<line class="grid" x1="${pad.left}" x2="${width - pad.right}" y1="${y(y0 + span * f)}" y2="${y(y0 + span * f)}"/>` +
        `<text class="axis" x="${pad.left - 4}" y="${y(y0 + span * f) + 3}" text-anchor="end">${(y0 + span * f).toFixed(2)}</text>` +
        `<text class="axis" x="${x(f)}" y="${height - pad.bottom + 14}" text-anchor="middle">${Math.round(f * 100)}%</text>`,
    )
    .join('');
  const paths = spec.curves
    .map((c, k) => {
      const d = c.points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${x(px)} ${y(py)}`).join('');
      const dots = c.points
        .map(
          ([px, py]) =>
            `<circle class="dot s${k % 8}" cx="${x(px)}" cy="${y(py)}" r="3"><title>${escapeHtml(
              `${c.name}: ${Math.round(px * 100)}% → ${py.toFixed(3)}`,
            )}</title></circle>`,
        )
        .join('');
      return `<path class="line s${k % 8}" d="${d}"/>${dots}`;
    })
    .join('');
  return (
    `<figure class="chart"><svg viewBox="0 0 ${width} ${height}" role="img" ` +
    `aria-label="${escapeHtml(spec.title)}"><title>${escapeHtml(spec.title)}</title>${ticks}${paths}` +
    `<text class="axis" x="${pad.left + plotW / 2}" y="${height - 6}" text-anchor="middle">${escapeHtml(spec.xTitle)}</text>` +
    `<text class="axis" transform="rotate(-90)" x="${-(pad.top + plotH / 2)}" y="12" text-anchor="middle">${escapeHtml(spec.yTitle)}</text>` +
    `</svg>${legend(spec.curves.map((c) => c.name))}</figure>`
  );
}

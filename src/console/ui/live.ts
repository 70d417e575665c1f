import type { FeedMessage, TrafficBucket } from '../../server/console-live.js';
import { barChart, compact, escapeHtml, lineChart } from '../charts.js';
import { readEvents } from './api.js';

/**
 * The live view: traffic per tier and model over the last minutes, decision sources, fallbacks
 * and upstream errors, latency percentiles, cost when the server has cost data, and the last
 * decisions. Fed by the server's event stream (one message a second), redrawn per message.
 */

/** Seconds of history kept and drawn, at most. */
const WINDOW_S = 120;
/** Seconds drawn at least. */
const MIN_SPAN_S = 30;

interface State {
  /** Buckets by second (server time), merged. */
  readonly seconds: Map<number, TrafficBucket>;
  recent: FeedMessage['recent'];
  promptLogging: boolean;
  now: number;
  messages: number;
}

/** Starts the live view in `root`: connects while the page is shown. */
export function mountLive(root: HTMLElement, onError: (e: unknown) => void) {
  root.innerHTML = `
    <h2>Live traffic <span class="muted" id="live-state" aria-live="polite"></span></h2>
    <div class="tiles" id="live-tiles"></div>
    <div class="grid2">
      <section class="card"><h3>Requests per tier (per second)</h3><div id="live-tiers"></div></section>
      <section class="card"><h3>Requests per model (per second)</h3><div id="live-models"></div></section>
      <section class="card"><h3>Latency percentiles (ms)</h3><div id="live-latency"></div></section>
      <section class="card"><h3>Decision sources (last ${WINDOW_S / 60} min)</h3><div id="live-sources"></div></section>
      <section class="card"><h3>Fallbacks and upstream errors (last ${WINDOW_S / 60} min)</h3><div id="live-errors"></div></section>
      <section class="card hidden" id="live-cost-card"><h3>Tokens and cost</h3><div id="live-cost"></div></section>
    </div>
    <h2>Last decisions</h2>
    <div id="live-recent" tabindex="0" role="region" aria-label="Last decisions"></div>`;
  const state: State = {
    seconds: new Map(),
    recent: [],
    promptLogging: false,
    now: 0,
    messages: 0,
  };
  let controller: AbortController | undefined;

  const start = () => {
    if (controller) return;
    controller = new AbortController();
    const signal = controller.signal;
    setState(root, 'connecting…');
    readEvents('/console/api/events', (data) => apply(root, state, data as FeedMessage), signal)
      .then(() => {
        controller = undefined;
        if (!signal.aborted) setState(root, 'disconnected');
      })
      .catch((error: unknown) => {
        controller = undefined;
        if (signal.aborted) return;
        setState(root, 'disconnected');
        onError(error);
      });
  };
  const stop = () => {
    controller?.abort();
    controller = undefined;
  };
  return { start, stop };
}

function setState(root: HTMLElement, text: string): void {
  root.querySelector('#live-state')!.textContent = text;
}

function apply(root: HTMLElement, state: State, message: FeedMessage): void {
  if (message.type === 'history') state.seconds.clear();
  for (const bucket of message.buckets) {
    const second = Math.ceil(bucket.t / 1000);
    const known = state.seconds.get(second);
    state.seconds.set(second, known ? merge(known, bucket) : bucket);
    state.now = Math.max(state.now, second);
  }
  if (message.type === 'history' && message.buckets.length === 0) {
    state.now = Math.ceil(Date.now() / 1000);
  }
  for (const second of state.seconds.keys()) {
    if (second <= state.now - WINDOW_S) state.seconds.delete(second);
  }
  state.recent = [...state.recent, ...message.recent].slice(-25);
  state.promptLogging = message.promptLogging;
  state.messages++;
  setState(root, `live · ${state.messages} update${state.messages === 1 ? '' : 's'}`);
  draw(root, state);
}

/** Two buckets of the same second: counts added, the later one's percentiles kept. */
function merge(a: TrafficBucket, b: TrafficBucket): TrafficBucket {
  const sum = (x: Record<string, number>, y: Record<string, number>) => {
    const out = { ...x };
    for (const [k, v] of Object.entries(y)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  return {
    ...b,
    count: a.count + b.count,
    byTier: sum(a.byTier, b.byTier),
    byModel: sum(a.byModel, b.byModel),
    bySource: sum(a.bySource, b.bySource),
    byStatus: sum(a.byStatus, b.byStatus),
    upstreamErrors: sum(a.upstreamErrors, b.upstreamErrors),
    fallbacks: a.fallbacks + b.fallbacks,
    latency: b.latency ?? a.latency,
    decideP50: b.decideP50 ?? a.decideP50,
    tokens: {
      prompt: a.tokens.prompt + b.tokens.prompt,
      completion: a.tokens.completion + b.tokens.completion,
    },
    cost:
      a.cost || b.cost
        ? {
            usd: (a.cost?.usd ?? 0) + (b.cost?.usd ?? 0),
            baselineUsd: (a.cost?.baselineUsd ?? 0) + (b.cost?.baselineUsd ?? 0),
          }
        : null,
  };
}

function draw(root: HTMLElement, state: State): void {
  // The charts span the traffic seen (at least MIN_SPAN_S, at most WINDOW_S seconds), so that
  // traffic that just began is not squeezed against the right edge.
  const earliest = Math.min(state.now, ...state.seconds.keys());
  const span = Math.max(MIN_SPAN_S, Math.min(WINDOW_S, state.now - earliest + 5));
  const grid: (TrafficBucket | undefined)[] = [];
  for (let s = state.now - span + 1; s <= state.now; s++) grid.push(state.seconds.get(s));
  const buckets = grid.filter((b): b is TrafficBucket => b !== undefined);
  const totals = (pick: (b: TrafficBucket) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const b of buckets)
      for (const [k, v] of Object.entries(pick(b))) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  const seriesOf = (pick: (b: TrafficBucket) => Record<string, number>, order: string[] = []) => {
    const names = [...new Set([...order, ...Object.keys(totals(pick))])].filter(
      (name) => order.length === 0 || totals(pick)[name] !== undefined || order.includes(name),
    );
    return names.map((name) => ({ name, values: grid.map((b) => (b ? (pick(b)[name] ?? 0) : 0)) }));
  };
  const xLabels: [string, string] = [span >= 120 ? `-${span / 60} min` : `-${span} s`, 'now'];
  const requests = buckets.reduce((n, b) => n + b.count, 0);
  const last = [...buckets].reverse().find((b) => b.latency !== null);
  const fallbacks = buckets.reduce((n, b) => n + b.fallbacks, 0);
  const errors = Object.values(totals((b) => b.upstreamErrors)).reduce((n, v) => n + v, 0);
  const lastSecond = state.seconds.get(state.now)?.count ?? 0;
  const tile = (label: string, value: string, field: string) =>
    `<div class="tile"><span class="muted">${escapeHtml(label)}</span><span class="big" data-field="${field}">${escapeHtml(value)}</span></div>`;
  root.querySelector('#live-tiles')!.innerHTML = [
    tile(`requests, last ${WINDOW_S / 60} min`, String(requests), 'requests'),
    tile('requests/s now', String(lastSecond), 'rate'),
    tile(
      'latency p50 / p99',
      last?.latency ? `${compact(last.latency.p50)} / ${compact(last.latency.p99)} ms` : '–',
      'latency',
    ),
    tile(
      'decision p50',
      last?.decideP50 != null ? `${(last.decideP50 * 1000).toFixed(0)} µs` : '–',
      'decide',
    ),
    tile('fallbacks', String(fallbacks), 'fallbacks'),
    tile('upstream errors', String(errors), 'errors'),
  ].join('');
  root.querySelector('#live-tiers')!.innerHTML = lineChart({
    title: 'Requests per tier per second',
    series: seriesOf((b) => b.byTier, ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING']),
    xLabels,
  });
  root.querySelector('#live-models')!.innerHTML = lineChart({
    title: 'Requests per model per second',
    series: seriesOf((b) => b.byModel),
    xLabels,
  });
  const pct = (k: 'p50' | 'p90' | 'p99') => ({
    name: k,
    values: grid.map((b) => (b?.latency ? b.latency[k] : null)),
  });
  root.querySelector('#live-latency')!.innerHTML = lineChart({
    title: 'Request latency percentiles in milliseconds',
    series: [pct('p50'), pct('p90'), pct('p99')],
    xLabels,
  });
  root.querySelector('#live-sources')!.innerHTML = barChart(
    'Decision sources',
    Object.entries(totals((b) => b.bySource)),
  );
  root.querySelector('#live-errors')!.innerHTML = barChart('Fallbacks and upstream errors', [
    ['fallbacks', fallbacks],
    ...Object.entries(totals((b) => b.upstreamErrors)),
    ...Object.entries(totals((b) => b.byStatus))
      .filter(([k]) => k !== '2xx')
      .map(([k, v]) => [`status ${k}`, v] as [string, number]),
  ]);
  drawCost(root, buckets);
  drawRecent(root, state);
}

function drawCost(root: HTMLElement, buckets: readonly TrafficBucket[]): void {
  const costed = buckets.filter((b) => b.cost !== null);
  root.querySelector('#live-cost-card')!.classList.toggle('hidden', costed.length === 0);
  if (costed.length === 0) return;
  const usd = costed.reduce((n, b) => n + b.cost!.usd, 0);
  const baseline = costed.reduce((n, b) => n + b.cost!.baselineUsd, 0);
  const prompt = buckets.reduce((n, b) => n + b.tokens.prompt, 0);
  const completion = buckets.reduce((n, b) => n + b.tokens.completion, 0);
  root.querySelector('#live-cost')!.innerHTML =
    `<dl class="kv"><dt>tokens</dt><dd>${compact(prompt)} in, ${compact(completion)} out</dd>` +
    `<dt>cost</dt><dd>$${usd.toFixed(4)}</dd><dt>on the baseline model</dt><dd>$${baseline.toFixed(4)}</dd>` +
    `<dt>saved</dt><dd data-field="saved">$${(baseline - usd).toFixed(4)}` +
    `${baseline > 0 ? ` (${Math.round(((baseline - usd) / baseline) * 100)}%)` : ''}</dd></dl>`;
}

function drawRecent(root: HTMLElement, state: State): void {
  if (state.recent.length === 0) {
    root.querySelector('#live-recent')!.innerHTML = '<p class="empty">No requests yet.</p>';
    return;
  }
  const rows = [...state.recent]
    .reverse()
    .map(
      (e) =>
        `<tr><td>${new Date(e.at).toLocaleTimeString()}</td><td>${escapeHtml(e.tier)}</td>` +
        `<td>${escapeHtml(e.model)}</td><td>${escapeHtml(e.source)}</td>` +
        `<td class="num">${Math.round(e.confidence * 100)}%</td><td class="num">${e.status}</td>` +
        `<td class="num">${compact(e.ms)}</td><td class="num">${e.fallbacks}</td>` +
        `<td>${escapeHtml(e.injection ?? '')}</td>` +
        (state.promptLogging ? `<td>${escapeHtml(e.prompt ?? '')}</td>` : '') +
        '</tr>',
    )
    .join('');
  root.querySelector('#live-recent')!.innerHTML =
    `<table><caption>The last ${state.recent.length} requests, newest first${state.promptLogging ? '' : ' (prompt text is shown only when prompt logging is on)'}</caption>` +
    '<thead><tr><th>time</th><th>tier</th><th>model</th><th>source</th><th class="num">confidence</th>' +
    '<th class="num">status</th><th class="num">ms</th><th class="num">fallbacks</th><th>injection</th>' +
    (state.promptLogging ? '<th>prompt</th>' : '') +
    `</tr></thead><tbody>${rows}</tbody></table>`;
}

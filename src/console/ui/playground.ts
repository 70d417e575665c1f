import { escapeHtml } from '../charts.js';
import type { ChainModel, ExplainedText } from '../explain.js';
import { highlight, type Mark } from '../highlight.js';
import { callJson } from './api.js';

/**
 * The playground: a prompt (or a pasted chat request) in, every decision out, as you type: tier
 * with its model chain, injection risk, context policy, capabilities; confidence, source and
 * signals of each, and the words that matched highlighted in the text each part read.
 */

interface Audit {
  readonly confidence: number;
  readonly source: string;
  readonly fallbackCause?: string | null;
  readonly reason?: string;
  /** The local classifier is unsure and an LLM is configured: `decide` would ask it. */
  readonly needsLlm?: boolean;
  readonly read: ExplainedText;
}

interface Explanation {
  readonly tier:
    | (Audit & { tier: string; signals: string[]; models: ChainModel[]; fallbackChain: string[] })
    | null;
  readonly injection:
    | (Audit & {
        riskLevel: string;
        local: { signals: { kind: string; label: string; weight: number }[] };
      })
    | null;
  readonly context: (Audit & { mode: string; local: { signals: string[] } | null }) | null;
  readonly capabilities: {
    selected: string[];
    decisions: { name: string; selected: boolean; confidence: number; source: string }[];
  } | null;
  readonly elapsedMs: number;
}

/** How long typing must pause before the prompt is decided, in milliseconds. */
const DEBOUNCE_MS = 150;

const EXAMPLE =
  'Write a Python function that parses a CSV file and explain step by step why it is correct.';

/** Builds the playground in `root`; `llm`: whether an LLM is configured (offers the option). */
export function mountPlayground(root: HTMLElement, llm: boolean, onError: (e: unknown) => void) {
  root.innerHTML = `
    <h2 id="pg-title">Playground</h2>
    <label for="pg-input">Prompt, or a chat request as JSON (<code>{"messages": [...]}</code>)</label>
    <textarea id="pg-input" spellcheck="false" aria-describedby="pg-help"></textarea>
    <p id="pg-help" class="muted">Decided locally as you type${llm ? '; tick the box to ask the LLM where a part is unsure' : ''}. Nothing is sent upstream.</p>
    <div class="row">
      ${llm ? '<label><input type="checkbox" id="pg-llm"> Ask the LLM where unsure</label>' : ''}
      <span id="pg-time" class="muted" aria-live="polite"></span>
    </div>
    <div id="pg-error" class="error" role="alert"></div>
    <h2>Matched text</h2>
    <div id="pg-text" aria-label="Text read, with matches highlighted"></div>
    <div id="pg-parts" class="grid2"></div>`;
  const input = root.querySelector<HTMLTextAreaElement>('#pg-input')!;
  const useLlm = root.querySelector<HTMLInputElement>('#pg-llm');
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: AbortController | undefined;

  const run = async () => {
    pending?.abort();
    const controller = new AbortController();
    pending = controller;
    const body = { ...requestOf(input.value), ...(useLlm?.checked ? { llm: true } : {}) };
    try {
      const result = await callJson<Explanation>('/console/api/decide', body, controller.signal);
      if (controller.signal.aborted) return;
      render(root, result);
      root.querySelector('#pg-error')!.textContent = '';
    } catch (error) {
      if (controller.signal.aborted) return;
      if ((error as Error).name === 'KeyNeeded' || error instanceof TypeError) onError(error);
      root.querySelector('#pg-error')!.textContent = (error as Error).message;
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  };
  input.addEventListener('input', schedule);
  useLlm?.addEventListener('change', schedule);
  input.value = EXAMPLE;
  void run();
  return { refresh: run };
}

/** `{ request }` for text that parses as a chat request, else `{ prompt }`. */
function requestOf(value: string): { prompt: string } | { request: unknown } {
  const trimmed = value.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as { messages?: unknown };
      if (parsed && Array.isArray(parsed.messages)) return { request: parsed };
    } catch {
      // Not JSON yet (still being typed): decided as a prompt.
    }
  }
  return { prompt: value };
}

function render(root: HTMLElement, r: Explanation): void {
  root.querySelector('#pg-time')!.textContent = `decided in ${r.elapsedMs.toFixed(3)} ms`;
  const texts = new Map<string, Mark[]>();
  const add = (part: string, read: ExplainedText | undefined) => {
    if (!read || read.text === '') return;
    const marks = texts.get(read.text) ?? [];
    for (const s of read.spans) marks.push({ ...s, part });
    texts.set(read.text, marks);
  };
  add('tier', r.tier?.read);
  add('injection', r.injection?.read);
  add('context', r.context?.read);
  const legend =
    '<p class="legend"><span><mark class="hl-tier">tier keyword</mark></span>' +
    '<span><mark class="hl-injection">injection evidence</mark></span>' +
    '<span><mark class="hl-context">context phrase</mark></span></p>';
  root.querySelector('#pg-text')!.innerHTML =
    texts.size === 0
      ? '<p class="empty">No user text to read.</p>'
      : legend +
        [...texts]
          .map(([text, marks]) => `<div class="text" tabindex="0">${highlight(text, marks)}</div>`)
          .join('');
  const cards: string[] = [];
  if (r.tier) cards.push(tierCard(r.tier));
  if (r.injection) cards.push(injectionCard(r.injection));
  if (r.context) cards.push(contextCard(r.context));
  if (r.capabilities) cards.push(capabilitiesCard(r.capabilities));
  root.querySelector('#pg-parts')!.innerHTML = cards.join('');
}

function audit(a: Audit): string {
  const pct = Math.round(a.confidence * 100);
  return (
    `<dl class="kv"><dt>confidence</dt><dd><span data-field="confidence">${pct}%</span>` +
    `<div class="meter" role="meter" aria-label="confidence" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${pct}"><i style="width:${pct}%"></i></div></dd>` +
    `<dt>source</dt><dd data-field="source">${escapeHtml(a.source)}${a.fallbackCause ? ` (${escapeHtml(a.fallbackCause)})` : ''}</dd>` +
    (a.reason ? `<dt>reason</dt><dd>${escapeHtml(a.reason)}</dd>` : '') +
    (a.needsLlm ? '<dt>LLM</dt><dd>unsure locally: the LLM would be asked</dd>' : '') +
    '</dl>'
  );
}

function list(items: readonly string[], empty: string): string {
  if (items.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  return `<ul class="signals">${items.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>`;
}

function tierCard(t: NonNullable<Explanation['tier']>): string {
  const chain =
    t.models.length === 0
      ? `<p class="muted">No upstream models configured; tiers tried: ${escapeHtml(t.fallbackChain.join(' → '))}</p>`
      : `<ol class="chain">${t.models.map((m) => `<li>${escapeHtml(m.provider)}/${escapeHtml(m.model)} <span class="muted">(${escapeHtml(m.tier)})</span></li>`).join('')}</ol>`;
  return (
    `<section class="card" aria-labelledby="card-tier"><h3 id="card-tier">Tier</h3>` +
    `<span class="badge big" data-field="tier">${escapeHtml(t.tier)}</span>${audit(t)}` +
    `<h3>Signals</h3>${list(t.signals, 'no signals')}<h3>Model chain</h3>${chain}</section>`
  );
}

function injectionCard(i: NonNullable<Explanation['injection']>): string {
  const signals = i.local.signals.map(
    (s) => `${s.kind}: ${s.label} (weight ${s.weight.toFixed(2)})`,
  );
  return (
    `<section class="card" aria-labelledby="card-injection"><h3 id="card-injection">Prompt injection</h3>` +
    `<span class="badge big level-${escapeHtml(i.riskLevel)}" data-field="risk">${escapeHtml(i.riskLevel)}</span>` +
    `${audit(i)}<h3>Signals</h3>${list(signals, 'no evidence')}</section>`
  );
}

function contextCard(c: NonNullable<Explanation['context']>): string {
  return (
    `<section class="card" aria-labelledby="card-context"><h3 id="card-context">Context policy</h3>` +
    `<span class="badge big" data-field="mode">${escapeHtml(c.mode)}</span>${audit(c)}` +
    `<h3>Signals</h3>${list(c.local?.signals ?? [], 'no signals')}</section>`
  );
}

function capabilitiesCard(c: NonNullable<Explanation['capabilities']>): string {
  const rows = c.decisions
    .map(
      (d) =>
        `<tr><td>${escapeHtml(d.name)}</td><td>${d.selected ? 'yes' : 'no'}</td>` +
        `<td class="num">${Math.round(d.confidence * 100)}%</td><td>${escapeHtml(d.source)}</td></tr>`,
    )
    .join('');
  return (
    `<section class="card" aria-labelledby="card-caps"><h3 id="card-caps">Capabilities</h3>` +
    `<p>Selected: <strong>${escapeHtml(c.selected.join(', ') || 'none')}</strong></p>` +
    `<table><thead><tr><th>capability</th><th>selected</th><th class="num">confidence</th><th>source</th></tr></thead><tbody>${rows}</tbody></table></section>`
  );
}

/**
 * Outcome metrics of a two-model router: given, for each prompt, how well a weak and a strong
 * model answered it and the router's score (higher: more in need of the strong model), what
 * quality does each share of strong calls buy? A threshold on the score sends the prompts at or
 * above it to the strong model; sweeping it from +∞ down traces the quality against the share of
 * strong calls, from the weak model's quality (no strong call) to the strong model's (all).
 *
 * - PGR (performance gap recovered) at a share: (quality − weak) / (strong − weak).
 * - APGR: the area under PGR against the share, from 0 to 1. Random routing recovers the gap in
 *   proportion to the share: 0.5. Prompts with equal scores cannot be told apart by a threshold,
 *   so the curve is a straight line across each group of ties (their average, as if in random
 *   order).
 */

/** How well the weak and the strong model answered one prompt (1/0, or any score scale). */
export interface Outcome {
  readonly weak: number;
  readonly strong: number;
}

/** One point of the curve: a threshold and what it gives. */
export interface RoutingPoint {
  /** Prompts with a score at or above this go to the strong model (+∞: none do). */
  readonly threshold: number;
  /** Share of prompts sent to the strong model, in [0, 1]. */
  readonly strongShare: number;
  /** Mean quality of the routed answers. */
  readonly quality: number;
  /** (quality − weak) / (strong − weak). */
  readonly pgr: number;
}

/** The quality curve of one score over a set of outcomes. */
export interface RoutingCurve {
  readonly rows: number;
  /** Mean quality with every prompt on the weak model, and on the strong one. */
  readonly weakQuality: number;
  readonly strongQuality: number;
  /** One point per distinct score (and the all-weak start), by increasing share. */
  readonly points: readonly RoutingPoint[];
  /** Area under PGR against the share; `NaN` when the strong model is not better. */
  readonly apgr: number;
}

/**
 * The curve of `scores` (one per outcome, same order). Scores of `+Infinity` (a rule that always
 * calls the strong model) come first; `NaN` is not a score and throws a `RangeError`.
 */
export function routingCurve(
  scores: readonly number[],
  outcomes: readonly Outcome[],
): RoutingCurve {
  const n = outcomes.length;
  if (scores.length !== n) throw new RangeError('one score per outcome is needed');
  if (n === 0) throw new RangeError('no outcomes to evaluate');
  if (scores.some(Number.isNaN)) throw new RangeError('a score is NaN');
  let weak = 0;
  let strong = 0;
  for (const outcome of outcomes) {
    weak += outcome.weak;
    strong += outcome.strong;
  }
  weak /= n;
  strong /= n;
  const gap = strong - weak;
  const order = scores.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  const points: RoutingPoint[] = [
    { threshold: Number.POSITIVE_INFINITY, strongShare: 0, quality: weak, pgr: 0 },
  ];
  let quality = weak;
  let area = 0;
  let i = 0;
  while (i < n) {
    const threshold = scores[order[i]!]!;
    let j = i;
    while (j < n && scores[order[j]!] === threshold) {
      const outcome = outcomes[order[j]!]!;
      quality += (outcome.strong - outcome.weak) / n;
      j++;
    }
    const previous = points[points.length - 1]!;
    const point = { threshold, strongShare: j / n, quality, pgr: (quality - weak) / gap };
    area += ((point.strongShare - previous.strongShare) * (point.pgr + previous.pgr)) / 2;
    points.push(point);
    i = j;
  }
  return {
    rows: n,
    weakQuality: weak,
    strongQuality: strong,
    points,
    apgr: gap > 0 ? area : Number.NaN,
  };
}

/**
 * The smallest share of strong calls at which the quality reaches `target`, read off the curve
 * with ties interpolated (what routing a random part of a tie group gives); `undefined` when no
 * share reaches it.
 */
export function shareForQuality(curve: RoutingCurve, target: number): number | undefined {
  const points = curve.points;
  if (points[0]!.quality >= target) return 0;
  for (let k = 1; k < points.length; k++) {
    const a = points[k - 1]!;
    const b = points[k]!;
    if (b.quality >= target) {
      const t = b.quality === a.quality ? 1 : (target - a.quality) / (b.quality - a.quality);
      return a.strongShare + t * (b.strongShare - a.strongShare);
    }
  }
  return undefined;
}

/**
 * The share of strong calls that random routing needs for `target` quality: quality rises in a
 * straight line from the weak model's to the strong model's.
 */
export function randomShareForQuality(curve: RoutingCurve, target: number): number | undefined {
  const { weakQuality: weak, strongQuality: strong } = curve;
  if (target <= weak) return 0;
  if (target > strong) return undefined;
  return (target - weak) / (strong - weak);
}

/**
 * The point whose share of strong calls is nearest `share` (on a tie, the smaller share): its
 * threshold sends that share of these prompts to the strong model. A threshold cannot split
 * prompts with equal scores, so the share reached may differ from the one asked.
 */
export function pointForShare(curve: RoutingCurve, share: number): RoutingPoint {
  let best = curve.points[0]!;
  for (const point of curve.points) {
    if (Math.abs(point.strongShare - share) < Math.abs(best.strongShare - share)) best = point;
  }
  return best;
}

/**
 * The first point (smallest share) whose quality reaches `target`, as a threshold can give it
 * (no interpolation inside a tie group); `undefined` when none does.
 */
export function pointForQuality(curve: RoutingCurve, target: number): RoutingPoint | undefined {
  return curve.points.find((point) => point.quality >= target);
}

/** The point at each share of `shares` (for a table of the curve). */
export function curveAt(curve: RoutingCurve, shares: readonly number[]): RoutingPoint[] {
  return shares.map((share) => pointForShare(curve, share));
}

/** The indices of the rows of each group (rows without one in `(none)`), groups sorted by name. */
export function indicesByGroup(
  groups: readonly (string | undefined)[],
): [group: string, indices: number[]][] {
  const byGroup = new Map<string, number[]>();
  groups.forEach((group, i) => {
    const name = group ?? '(none)';
    const list = byGroup.get(name);
    if (list) list.push(i);
    else byGroup.set(name, [i]);
  });
  return [...byGroup].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

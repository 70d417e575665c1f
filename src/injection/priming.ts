/**
 * Many-shot and few-shot priming: a forged run of turns in which the "assistant" always complies
 * (`User: how do I …? Assistant: Sure! …`, `Q: What is the password? A: The password is …`),
 * ending on an open assistant turn for the model to complete. A pasted transcript to summarise
 * does not end on an open turn; examples of a task seldom show compliance.
 */

/** The most of a text examined (priming is at its end). */
const TAIL_CHARS = 20_000;
/** Fewest turns that make a run. */
const MIN_TURNS = 3;

/** The text ends on an open answer turn: `Assistant:`, `A:`, `Output:`, … with nothing after. */
const OPEN_TURN =
  /(?:^|[\s"'(])(?:assistant|ai|bot|a|answer|output|response|reply|system|gpt|chatgpt|model|agent|dan)\s*[:：]\s*$/i;
/** A turn header at the start of a line or after a space (`Q: … A: …` on one line). */
const TURN =
  /(?:^|\s)(?:\*\*)?(?:user|human|you|q|question|input|prompt|assistant|ai|bot|a|answer|output|response|reply|system|gpt|chatgpt|model|agent|example\s*\d+)\b[^:\n]{0,40}[:：]/gim;
/** What a complying answer says. */
const COMPLIANCE =
  /\b(?:sure|of course|certainly|absolutely|here is|here's|here are|the password is|the secret is|the code is|my (?:full |complete |)instructions are|access granted|step-by-step guide)\b/gi;

/** The weight of priming in `text[start, end)`, with where it starts; 0 when there is none. */
export function primingWeight(
  text: string,
  start: number,
  end: number,
): { weight: number; at: number } {
  if (!endsWithColon(text, start, end)) return NONE;
  const tailStart = Math.max(start, end - 80);
  if (!OPEN_TURN.test(text.slice(tailStart, end))) return NONE;
  const region = text.slice(Math.max(start, end - TAIL_CHARS), end);
  const turns = region.match(TURN)?.length ?? 0;
  if (turns < MIN_TURNS * 2 - 1) return NONE;
  const compliance = Math.min(region.match(COMPLIANCE)?.length ?? 0, 10);
  const weight = compliance >= 2 ? 0.65 : 0.4;
  return { weight, at: end - region.length };
}

const NONE = { weight: 0, at: -1 } as const;

/** Whether the text's last character that is not white space is a colon (`A:`, `Output：`). */
function endsWithColon(text: string, start: number, end: number): boolean {
  for (let i = end - 1; i >= start; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    return c === 0x3a || c === 0xff1a;
  }
  return false;
}

import type { PreparedInput } from './input.js';

/**
 * The user turn every classifier receives: the history and the target as tagged data (the shared
 * preamble tells the model that tagged text is material, never instructions). Built once per run
 * and shared by all classifiers.
 *
 * A message that contains the tags itself (`</target>` followed by fake instructions) could close
 * the data block early; such tags inside content are neutralised (`<` becomes `&lt;`), so the
 * only real tags are the ones written here.
 */
export function renderConversation(input: PreparedInput): string {
  const parts: string[] = [];
  if (input.history.length === 0) {
    parts.push(
      input.historyOmitted > 0
        ? `Earlier messages: ${input.historyOmitted} not shown.`
        : 'There are no earlier messages.',
    );
  } else {
    const omitted = input.historyOmitted > 0 ? `; ${input.historyOmitted} older not shown` : '';
    parts.push(`Earlier messages (oldest first${omitted}):`);
    for (const message of input.history) {
      parts.push(
        `<message role="${message.role}">\n${neutraliseTags(message.content)}\n</message>`,
      );
    }
  }
  const { target } = input;
  const cut = target.truncated ? ' (its middle was left out to fit)' : '';
  parts.push(
    `Message to classify${cut}:\n<target role="${target.role}">\n${neutraliseTags(target.content)}\n</target>`,
  );
  return parts.join('\n\n');
}

const TAG = /<(\/?\s*(?:message|target)\b)/gi;

/** Replaces the `<` of any `<message`, `</message`, `<target` or `</target` in `text`. */
export function neutraliseTags(text: string): string {
  return text.includes('<') ? text.replace(TAG, '&lt;$1') : text;
}

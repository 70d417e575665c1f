import { describe, expect, it } from 'vitest';
import { historyWindow, lastTurns, selectContext } from './history.js';
import { DEFAULT_MODES } from './modes.js';

const m = (role: string, content: string) => ({ role, content });
const conversation = [
  m('assistant', 'Hello, show me a page.'),
  m('user', 'u1'),
  m('assistant', 'a1'),
  m('user', 'u2'),
  m('assistant', 'a2'),
  m('tool', 't2'),
  m('user', 'u3'),
  m('assistant', 'a3'),
];
const contents = (messages: readonly { content: string }[]) => messages.map((x) => x.content);

describe('lastTurns', () => {
  it('keeps the last N turns, each from a user message to the next', () => {
    expect(contents(lastTurns(conversation, 1))).toEqual(['u3', 'a3']);
    expect(contents(lastTurns(conversation, 2))).toEqual(['u2', 'a2', 't2', 'u3', 'a3']);
  });

  it('keeps everything for 0, or when there are fewer turns than asked', () => {
    expect(lastTurns(conversation, 0)).toEqual(conversation);
    expect(lastTurns(conversation, 3)).toEqual(conversation.slice(1));
    expect(lastTurns(conversation, 9)).toEqual(conversation);
    expect(lastTurns([], 2)).toEqual([]);
  });

  it('never modifies its input, and rejects a bad window', () => {
    const copy = [...conversation];
    lastTurns(conversation, 1).push(m('user', 'x'));
    expect(conversation).toEqual(copy);
    expect(() => lastTurns(conversation, -1)).toThrow(RangeError);
    expect(() => lastTurns(conversation, 1.5)).toThrow(RangeError);
  });
});

describe('historyWindow and selectContext apply the original design’s policies', () => {
  const available = {
    history: conversation,
    image: 'page.jpg',
    memory: 'studied thermodynamics last week',
    notes: 'Entropy: see note 12',
  };

  it('standalone definition: nothing but the instruction and the cap', () => {
    const policy = DEFAULT_MODES.standalone_definition.policy;
    expect(historyWindow(conversation, policy)).toEqual([]);
    expect(selectContext(policy, available)).toEqual({
      history: [],
      instruction: policy.turnInstruction,
      maxSentences: 2,
    });
  });

  it('page-grounded definition: the image and the last two turns', () => {
    const policy = DEFAULT_MODES.page_grounded_definition.policy;
    const selected = selectContext(policy, available);
    expect(contents(selected.history)).toEqual(['u2', 'a2', 't2', 'u3', 'a3']);
    expect(selected).toMatchObject({ image: 'page.jpg', maxSentences: 2 });
    expect(selected).not.toHaveProperty('memory');
    expect(selected).not.toHaveProperty('notes');
  });

  it('general contextual: everything, no instruction, no cap', () => {
    const selected = selectContext(DEFAULT_MODES.general_contextual.policy, available);
    expect(selected).toEqual({
      history: conversation,
      image: 'page.jpg',
      memory: available.memory,
      notes: available.notes,
    });
  });

  it('leaves out what the application does not have', () => {
    expect(selectContext(DEFAULT_MODES.general_contextual.policy, {})).toEqual({ history: [] });
  });
});

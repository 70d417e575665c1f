/**
 * The signals a local classifier sees in a text, for the misclassified rows of an HTML report:
 * the default classifier of the evaluated kind, loaded only when a report asks for it.
 */
export async function localSignals(
  kind: string,
  texts: ReadonlyMap<number, string>,
): Promise<Map<number, readonly string[]> | undefined> {
  const explain = await explainerOf(kind);
  if (explain === undefined) return undefined;
  const out = new Map<number, readonly string[]>();
  for (const [line, text] of texts) {
    try {
      out.set(line, explain(text));
    } catch {
      // A row the default classifier cannot read (it was read by the evaluated one): no signals.
      out.set(line, []);
    }
  }
  return out;
}

async function explainerOf(kind: string): Promise<((text: string) => string[]) | undefined> {
  switch (kind) {
    case 'tier': {
      const { createTierRouter } = await import('../../tier/router.js');
      const router = createTierRouter();
      return (text) => [...router.classify(text).signals];
    }
    case 'injection': {
      const { detectInjection } = await import('../../injection/detector.js');
      return (text) => detectInjection(text).signals.map((s) => `${s.kind}: ${s.label}`);
    }
    case 'context': {
      const { createContextRouter } = await import('../../context/router.js');
      const router = createContextRouter();
      return (text) => [...router.explain(text).signals];
    }
    default:
      return undefined;
  }
}

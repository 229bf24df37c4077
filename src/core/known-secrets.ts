/**
 * Credentials in the formats a maintained rule set knows: the recommended preset of secretlint, an npm package
 * kept up to date as providers add and change token formats. Its rules are driven through their public rule
 * interface (create, then `file` on the text), synchronously, so every check that masks or refuses text can
 * ask them without waiting. A rule whose check completes later (one verifies with WebCrypto) adds nothing here:
 * Remem's own rules cover its format. The preset is loaded on first use, so a path that never looks for a
 * secret (the hooks) never pays for it.
 */
import { createRequire } from 'node:module';
import type {
  SecretLintRuleCreator,
  SecretLintRulePresetCreator,
  SecretLintSourceCode,
} from '@secretlint/types';

/** A secret a rule of the preset found: where, and which rule. */
export interface KnownSecret {
  start: number;
  end: number;
  rule: string;
}

interface Driven {
  handlers: { file?(source: SecretLintSourceCode): void | Promise<void> }[];
  /** Where the rules report during one synchronous pass; null between passes. */
  sink: { found: KnownSecret[]; ignored: [number, number][] } | null;
}

let driven: Driven | undefined;

function drive(): Driven {
  if (driven) return driven;
  const state: Driven = { handlers: [], sink: null };
  const preset = (
    createRequire(import.meta.url)('@secretlint/secretlint-rule-preset-recommend') as {
      creator: SecretLintRulePresetCreator;
    }
  ).creator;
  const sharedOptions = { locale: 'en', maskSecrets: true };
  const registered: { rule: SecretLintRuleCreator<unknown>; options: unknown }[] = [];
  preset.create(
    {
      sharedOptions,
      registerRule(rule, defaults) {
        registered.push({ rule: rule as SecretLintRuleCreator<unknown>, options: defaults?.options ?? {} });
      },
    },
    {},
  );
  for (const { rule, options } of registered) {
    if (!rule.meta.supportedContentTypes.some((type) => type === 'text' || type === 'all')) continue;
    const id = rule.meta.id.replace(/^@secretlint\/secretlint-rule-/, '');
    state.handlers.push(
      rule.create(
        {
          sharedOptions,
          createTranslator: (messages) =>
            ((messageId: string, data?: object) => ({
              message: String((messages as Record<string, { en?: unknown }>)[messageId]?.en ?? messageId),
              messageId,
              data,
            })) as never,
          report(descriptor) {
            state.sink?.found.push({ start: descriptor.range[0], end: descriptor.range[1], rule: id });
          },
          ignore(descriptor) {
            state.sink?.ignored.push([descriptor.range[0], descriptor.range[1]]);
          },
        },
        options,
      ),
    );
  }
  driven = state;
  return state;
}

/**
 * Whether any rule of the preset could find something: every format it knows carries a run of 16 or more token
 * characters, a URL's `://` (credentials in it, connection strings), a PEM block, or a Slack webhook's host.
 * Most texts ingest cleans (names, paths, short fields) have none, and are not handed to 25 rules.
 */
const SECRET_SHAPE = /[A-Za-z0-9+/=_.-]{16}|:\/\/|-----BEGIN|hooks\.slack\.com/;

function mayHoldSecret(text: string): boolean {
  return text.length >= 16 && SECRET_SHAPE.test(text);
}

/** The text as a rule reads it: its content, and line/column positions worked out only if a rule asks. */
function sourceOf(text: string): SecretLintSourceCode {
  let starts: number[] | undefined;
  const lineStarts = () => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    return starts;
  };
  const indexToPosition = (index: number) => {
    const lines = lineStarts();
    let line = 0;
    while (line + 1 < lines.length && lines[line + 1]! <= index) line++;
    return { line: line + 1, column: index - lines[line]! };
  };
  const positionToIndex = (pos: { line: number; column: number }) =>
    (lineStarts()[pos.line - 1] ?? 0) + pos.column;
  return {
    hasBOM: false,
    content: text,
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: '.txt',
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    indexToPosition,
    positionToIndex,
    rangeToLocation: ([start, end]) => ({ start: indexToPosition(start), end: indexToPosition(end) }),
    locationToRange: (loc) => [positionToIndex(loc.start), positionToIndex(loc.end)],
  };
}

/** Every secret the preset's rules find in `text` at once, left to right; none inside a range a rule ignores. */
export function knownSecrets(text: string): KnownSecret[] {
  if (!mayHoldSecret(text)) return [];
  const state = drive();
  const sink = { found: [] as KnownSecret[], ignored: [] as [number, number][] };
  const source = sourceOf(text);
  state.sink = sink;
  try {
    for (const handler of state.handlers) {
      const pending = handler.file?.(source);
      // Whatever a rule would report later belongs to no pass: it is dropped, never left unhandled.
      if (pending instanceof Promise) pending.catch(() => {});
    }
  } finally {
    state.sink = null;
  }
  return sink.found
    .filter(({ start, end }) => !sink.ignored.some(([from, to]) => start >= from && end <= to))
    .sort((a, b) => a.start - b.start || b.end - a.end);
}

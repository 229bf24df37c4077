import { describe, expect, it } from 'vitest';
import { defaultParams } from '../../src/core/index.ts';
import { dot, hashedVector } from '../../src/embed/index.ts';
import { disagree, polarityOf, polarityRules, quotedWords } from '../../src/sleep/subject.ts';

const cut = defaultParams.truth.subjectCut;
const maxTerms = defaultParams.truth.claimMaxTerms;
const subject = (a: string, b: string) => dot(hashedVector(a, 256), hashedVector(b, 256));

describe('polarity: negation cues, odd count is negative', () => {
  it.each(polarityRules.negative)('negative: %j', (words) => {
    expect(polarityOf(words, maxTerms)).toBe('negative');
  });

  it.each(polarityRules.positive)('positive: %j', (words) => {
    expect(polarityOf(words, maxTerms)).toBe('positive');
  });

  it('a clause of interjections answers the agent; a negation after a comma contrasts', () => {
    expect(polarityOf('No, no. The tests run in parallel.', maxTerms)).toBe('positive');
    expect(polarityOf('the build uses uv, not pip', maxTerms)).toBe('positive');
    expect(polarityOf('Nope. Not on Fridays.', maxTerms)).toBe('negative');
  });

  it('words of more terms than one claim holds have no polarity and disagree with nothing', () => {
    const long =
      'no, that is not what I meant: the parser does not handle nested lists and the renderer drops the last item when the list is long, please look again';
    expect(polarityOf(long, maxTerms)).toBe('none');
    expect(disagree('correction', long, 'the parser handles nested lists', maxTerms)).toBe(false);
    expect(
      disagree(
        'correction',
        'the parser does not handle nested lists',
        'the parser handles nested lists',
        maxTerms,
      ),
    ).toBe(true);
  });

  it('a lesson with no sources here speaks in its last quotation', () => {
    expect(
      quotedWords('When the agent said "I will use pip", the person answered: "the tests do not run"'),
    ).toBe('the tests do not run');
    expect(quotedWords('The staging database is postgres 16.')).toBe('The staging database is postgres 16.');
  });
});

/** Pairs labelled by hand: the same subject or not. The cut must separate them. */
const sameSubject: [string, string][] = [
  ['no, the tests run in parallel here', 'the tests do not run in parallel anymore, they share one database'],
  ['this project uses uv, not pip', 'this project does not use uv anymore, it uses pip'],
  ['the staging database is postgres 15', 'the staging database is not postgres 15, it is postgres 16'],
  ['the api returns dates in utc', 'the api does not return dates in utc, it returns local time'],
  ['no, commit messages are in english', 'commit messages are not in english here, they are in french'],
];
const otherSubjects: [string, string][] = [
  ['this project uses uv, not pip', 'we moved the docs to a wiki'],
  ['this project uses uv, not pip', 'the build is slow on CI'],
  ['no, this project uses uv, not pip', 'no, run uv sync before the tests'],
  ['deploys go through the staging branch', 'the release notes go in CHANGELOG.md'],
  ['the config lives in config.toml', 'the tests need docker running'],
];

describe(`subject: hashed cosine of the words ≥ ${cut}, below the merge cut`, () => {
  it('is lower than the merge cut, so lessons that say opposite things can still share a subject', () => {
    expect(cut).toBeLessThan(defaultParams.linkage.hashed);
  });

  it.each(sameSubject)('same subject: %j / %j', (a, b) => {
    expect(subject(a, b)).toBeGreaterThanOrEqual(cut);
  });

  it.each(otherSubjects)('other subjects: %j / %j', (a, b) => {
    expect(subject(a, b)).toBeLessThan(cut);
  });

  it('two wishes about the same thing that ask for different things share a subject and are not told to disagree', () => {
    // Both about answer length; polarity alone marks a disagreement, and neither negates.
    const [a, b] = ['please keep answers short', 'the answers were too short, give more detail'];
    expect(subject(a, b)).toBeGreaterThanOrEqual(cut);
    expect(disagree('correction', a, b, maxTerms)).toBe(false);
  });

  it('every labelled same-subject pair of opposite polarity is told apart by polarity', () => {
    for (const [a, b] of sameSubject)
      expect(polarityOf(a, maxTerms), `${a} / ${b}`).not.toBe(polarityOf(b, maxTerms));
  });
});

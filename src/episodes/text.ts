/** Text helpers shared by the episode derivation. */

/** Code fences and inline code removed: what an agent says, not the code it shows. */
export function withoutCode(text: string): string {
  let rest = text;
  // Each step runs only when the text holds what it removes: most replies hold no code.
  if (rest.includes('```')) rest = rest.replace(/```[\s\S]*?(```|$)/g, ' ');
  if (rest.includes('`')) rest = rest.replace(/`[^`\n]*`/g, ' ');
  if (rest.includes('\n')) rest = rest.replace(/[ \t]+\n/g, '\n');
  return rest;
}

export function clip(text: string, max: number): string {
  const flat = text.trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

export function tail(text: string, max: number): string {
  return text.length <= max ? text : text.slice(text.length - max);
}

/**
 * The agent sentence a message answered: the closing sentence of the reply before it (code left out),
 * at most 300 characters.
 */
export function closingSentence(reply: string): string {
  // Fenced code goes; inline code stays as words, or the sentence loses its object.
  const prose = reply
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/`([^`\n]*)`/g, '$1')
    .trim();
  if (!prose) return '';
  const paragraphs = prose.split(/\n\s*\n/).filter((part) => part.trim());
  // Code that no fence marked (an export that lost its fences, an edit's markers) is passed over for the last
  // sentence that reads as prose; a reply of code alone keeps its closing words.
  for (let index = paragraphs.length - 1; index >= 0; index--) {
    const found = closingOf(paragraphs[index]!, isProse);
    if (found) return clip(found, 300);
  }
  return clip(
    closingOf(paragraphs[paragraphs.length - 1] ?? prose, () => true),
    300,
  );
}

/** The paragraph's last sentences that `keep` accepts, at least 40 characters of them when it has that many. */
function closingOf(paragraph: string, keep: (sentence: string) => boolean): string {
  const flat = paragraph.replace(/\s+/g, ' ').trim();
  // A sentence ends at its stop and the space after it: "main.py" and "v1.2" are not two sentences.
  const sentences = flat.split(/(?<=[.!?]["')\]]*) +|(?<=[。！？])/).filter((part) => part.trim());
  let sentence = '';
  for (let index = sentences.length - 1; index >= 0; index--) {
    const part = sentences[index]!.trim();
    if (!keep(part)) {
      if (sentence) break;
      continue;
    }
    sentence = `${part}${/[。！？]$/.test(part) ? '' : ' '}${sentence}`.trim();
    if (sentence.length >= 40) break;
  }
  return sentence;
}

/** An edit's markers, a comment, an arrow, a statement's end: what code has and a sentence does not. */
const CODE_MARKS =
  /[<>=]{7}|(?:^|\s)(?:\/\/|#)\s|=>|&&|\|\||<\/|\/>|\w\.\w+\(|\(\)|\s[=!]==?\s|[{};]\s*$|\)\s*;|^[\]})]|^(?:if|for|while|def|class|import|from|const|let|var|return) /;

/** Mostly letters and spaces, three words or more (or written without spaces), and no mark of code. */
function isProse(sentence: string): boolean {
  if (CODE_MARKS.test(sentence)) return false;
  const letters = sentence.match(/[\p{L} ]/gu)?.length ?? 0;
  const unspaced =
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u.test(sentence);
  return letters / sentence.length >= 0.75 && (unspaced || sentence.split(' ').length >= 3);
}

/** A line that names the error: `CACError: Unknown option`, `error TS2304: …`, `npm ERR! …`, `fatal: …`. */
const NAMES_ERROR =
  /^(?:(?:Uncaught |Unhandled )?[A-Za-z_$][\w$.]*(?:Error|Exception|Fault)(?: \[[\w-]+\])?: \S|error(?: TS\d+|\[\w+\])?: \S|npm ERR! \S|ERR_\w+|fatal: \S|panic: \S|\S+: command not found|E\s+\w*(?:Error|Exception)\b)/;
/** Lines a runtime prints around the message: the source line it failed on, its caret, stack frames. */
const NOT_THE_MESSAGE =
  /^(?:exit code:? -?\d+|error:?|process exited with code -?\d+|at .+|\^+~*|~+|(?:file:\/\/|\/|[A-Za-z]:\\|node:)\S*:\d+(?::\d+)?|throw\b.*|\d+ \| .*|>.*\|.*|Traceback \(most recent call last\):|File ".*", line \d+.*)$/i;

/**
 * The line of a failure that says what went wrong: the one that names the error when there is one (Node prints the
 * source line it threw on above it), else the first line that is not a location, a frame or an exit code.
 */
export function firstMeaningfulLine(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const named = lines.find((line) => NAMES_ERROR.test(line));
  const meaningful = named ?? lines.find((line) => !NOT_THE_MESSAGE.test(line));
  return clip(meaningful ?? lines[0] ?? '', 300);
}

export function paragraphs(text: string): string[] {
  const prose = withoutCode(text);
  return (prose.includes('\n') ? prose.split(/\n\s*\n/) : [prose]).map((part) => part.trim()).filter(Boolean);
}

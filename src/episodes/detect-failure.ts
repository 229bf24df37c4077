/**
 * The failed tool call's detector: was it the agent's own mistake (an error episode, consolidated into lessons)
 * or the environment's (never consolidated)? The hand-written rules (`cues/failure.ts`) give a verdict; the
 * learned detector (`model/failure.ts`, fitted by `npm run train`) reads it as one feature among the error's
 * words, its shape, the command and the exit code, and decides.
 */
import {
  ENVIRONMENT,
  HARNESS_FRAMING,
  MISSING_TOOL,
  POWERSHELL_ALIASES,
  PROBE,
  PROBE_ANSWER,
  PROJECT_LOCAL,
  SHELL_WRAPPER,
} from './cues/index.ts';
import { type CueHit, type CueList, compile, firstHit, lazily, nextMatch, normalizeLines } from './match.ts';
import { mistakeProbability, mistakeThreshold } from './model/failure.ts';

const cues = lazily({
  environment: () => compile(ENVIRONMENT),
  missingTool: () => compile(MISSING_TOOL),
  projectLocal: () => compile(PROJECT_LOCAL),
  shellWrapper: () => compile(SHELL_WRAPPER),
  framing: () => compile(HARNESS_FRAMING),
  probe: () => PROBE.groups.map((group) => compile({ name: PROBE.name, groups: [group] })),
  probeAnswer: () => compile(PROBE_ANSWER),
});

/** A failed tool call as the detectors read it. */
export interface FailedCall {
  tool: string;
  input: string;
  error: string;
  exitCode?: number;
}

export interface FailureVerdict {
  kind: 'agent_mistake' | 'environment';
  hit: CueHit | null;
}

/**
 * Was a failed tool call the agent's own mistake or the environment's? The learned detector decides, reading
 * the rules' verdict as a feature; the hit is the rule's when the two agree, else the model's probability.
 */
export function classifyFailure(f: FailedCall): FailureVerdict {
  const rule = ruleFailure(f);
  const score = mistakeProbability(f, { verdict: rule.kind, rule: rule.hit?.rule ?? null });
  const kind = score >= mistakeThreshold() ? 'agent_mistake' : 'environment';
  if (kind === rule.kind) return rule;
  return { kind, hit: { rule: 'learned', cue: `learned detector, p=${score.toFixed(2)}` } };
}

/** The exit code an error names ("Exit code 2", "exited with code 128", "exit status 1"), if it names one. */
export function exitCodeOf(error: string): number | undefined {
  const m = /(?:exited with code|exit code|exit status)[: ]+(\d+)/i.exec(error);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

/**
 * The hand-written rules alone: the environment's for a missing tool, a permission or password, the network,
 * the person cancelling, the IDE's shell wrapper, a probe whose failing answer was the point; else the agent's.
 */
export function ruleFailure(f: FailedCall): FailureVerdict {
  const environment = (hit: CueHit) => ({ kind: 'environment' as const, hit });
  const input = normalizeLines(f.input);
  const lines = normalizeLines(f.error).split('\n');
  const wrapper = lines.filter((line) => firstHit(cues.shellWrapper, line));
  const kept = lines.filter((line) => !firstHit(cues.shellWrapper, line));
  const error = kept.join('\n').trim();
  if (/cancel/i.test(f.tool))
    return environment({ rule: 'ENVIRONMENT', cue: 'the person cancelled the call' });
  if (error === '' && wrapper.length > 0)
    return environment(firstHit(cues.shellWrapper, wrapper.join('\n'))!);

  for (const missing of cues.missingTool.cues) {
    const name = nextMatch(missing, error, 0)?.[1];
    if (name === undefined) continue;
    const local = firstHit(cues.projectLocal, name);
    if (local) return { kind: 'agent_mistake', hit: local };
    return environment({ rule: missing.rule, cue: missing.cue });
  }
  const cmdlet = /\[([a-z]+-[a-z]+)\], \w*exception/.exec(error)?.[1];
  if (cmdlet) {
    const names = POWERSHELL_ALIASES[cmdlet] ?? [cmdlet];
    const called = names.some((name) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(input));
    if (!called)
      return environment({
        rule: 'SHELL_WRAPPER',
        cue: `error from ${cmdlet}, which the command did not call`,
      });
  }
  const env = firstHit(cues.environment, error);
  if (env) return environment(env);

  const exit = f.exitCode ?? exitCodeOf(error);
  const output = kept.filter((line) => line.trim() !== '' && !firstHit(cues.framing, line));
  const answer = firstHit(cues.probeAnswer, error);
  const [gitProbe, searchProbe, httpProbe] = cues.probe as [CueList, CueList, CueList];
  const probe =
    ((answer || exit === 128) && firstHit(gitProbe, input)) ||
    (exit === 1 && output.length === 0 && firstHit(searchProbe, input)) ||
    (answer && firstHit(httpProbe, input));
  if (probe) return environment(answer ?? probe);
  return { kind: 'agent_mistake', hit: null };
}

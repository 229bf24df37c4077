import type { ExperimentName } from './kept.ts';
import { mechanismArms, type Preamble, wholeMemory } from './memory.ts';
import { actSituations, askSituations, type SettingName, type Situation } from './situations.ts';

/** One arm: what goes before (or after) the person's message, and the second turn a hand-back gets, if any. */
export interface ArmSpec {
  name: string;
  upFront: Preamble | null;
  turn: 'reminder' | 'nudge' | null;
}

export interface ExperimentPlan {
  name: ExperimentName;
  situations: readonly Situation[];
  settings: readonly SettingName[];
  arms: readonly ArmSpec[];
  /** The arm every other is compared with. */
  baseline: string;
  runs: number;
  /** Whether the model works in a loop with a simulated shell and editor. */
  loop: boolean;
  /** What the table counts: hand-backs, or (where asking is right) replies that asked. */
  counts: 'hand-backs' | 'asked';
}

const memory: Preamble = { text: wholeMemory, place: 'before' };

/** none · context (the whole memory up front) · reminder (context, then the end-of-turn reminder) · nudge. */
const fourArms: readonly ArmSpec[] = [
  { name: 'none', upFront: null, turn: null },
  { name: 'context', upFront: memory, turn: null },
  { name: 'reminder', upFront: memory, turn: 'reminder' },
  { name: 'nudge', upFront: memory, turn: 'nudge' },
];

/** In the loop, arms as the shipped defaults deliver memory: the reminder and the nudge with nothing up front. */
const loopArms: readonly ArmSpec[] = [
  { name: 'none', upFront: null, turn: null },
  { name: 'context', upFront: memory, turn: null },
  { name: 'reminder', upFront: null, turn: 'reminder' },
  { name: 'nudge', upFront: null, turn: 'nudge' },
];

export const plans: Readonly<Record<ExperimentName, ExperimentPlan>> = {
  behaviour: {
    name: 'behaviour',
    situations: actSituations,
    settings: ['agent', 'assistant'],
    arms: fourArms,
    baseline: 'none',
    runs: 3,
    loop: false,
    counts: 'hand-backs',
  },
  mechanism: {
    name: 'mechanism',
    situations: actSituations,
    settings: ['agent'],
    arms: Object.entries(mechanismArms).map(([name, upFront]) => ({ name, upFront, turn: null })),
    baseline: 'none',
    runs: 3,
    loop: false,
    counts: 'hand-backs',
  },
  loop: {
    name: 'loop',
    situations: actSituations,
    settings: ['agent'],
    arms: loopArms,
    baseline: 'none',
    runs: 2,
    loop: true,
    counts: 'hand-backs',
  },
  boundary: {
    name: 'boundary',
    situations: askSituations,
    settings: ['agent'],
    arms: fourArms,
    baseline: 'none',
    runs: 2,
    loop: false,
    counts: 'asked',
  },
};

/** One reply to keep. */
export interface Unit {
  model: string;
  setting: SettingName;
  situation: Situation;
  arm: ArmSpec;
  run: number;
}

/**
 * Every reply of a plan, run by run: the first run of every arm comes before anyone's second, so a run stopped
 * halfway still compares the arms on the same situations.
 */
export function unitsOf(
  plan: ExperimentPlan,
  models: readonly string[],
  runs: number,
  limit?: number,
): Unit[] {
  const situations = limit === undefined ? plan.situations : plan.situations.slice(0, limit);
  const units: Unit[] = [];
  for (let run = 1; run <= runs; run++)
    for (const model of models)
      for (const setting of plan.settings)
        for (const situation of situations)
          for (const arm of plan.arms) units.push({ model, setting, situation, arm, run });
  return units;
}

/**
 * The learned offer detector at run time: the weights `npm run train` wrote (`handback.json`), and the threshold
 * chosen out-of-fold for precision, with few replies that wait for the person over it.
 */
import weightsFile from './handback.json' with { type: 'json' };
import { type HandbackContext, visitHandbackFeatures } from './handback-features.ts';
import { lazyModel, scoreWith } from './weights.ts';

const model = /* @__PURE__ */ lazyModel('handback', () => weightsFile);

/** The probability that a reply's closing offers work the agent could do itself. */
export function offerProbability(replyTail: string, context: HandbackContext): number {
  return scoreWith(model(), (dims, visit) => visitHandbackFeatures(replyTail, context, dims, visit));
}

export function offerThreshold(): number {
  return model().file.threshold;
}

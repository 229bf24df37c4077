/**
 * The learned offer detector, loaded by the Stop hook only once the rules read an offer: its weights stay out of
 * the hook's bundle, which every prompt loads.
 */
export { offersWork } from '../episodes/light.ts';

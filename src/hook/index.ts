/**
 * The prime index as the hooks read it, the format the nightly job writes it in, and the kernel that estimates
 * over it: what `remem prime` answers from, kept small, since the hook's bundle takes this folder and no other
 * front door of the store's side.
 */
export { type EstimateInput, type EstimateKernel, estimateKernel } from './estimate-kernel.ts';
export {
  openPrimeIndex,
  type PrimeIndex,
  type PrimeRows,
  primeIndexVectors,
  type RowDetail,
} from './prime-index-file.ts';
export {
  blockBytes,
  bodyStart,
  COLUMNS,
  PRIME_INDEX_FILE,
  PRIME_INDEX_MAGIC,
  PRIME_INDEX_VERSION,
  type PrimeIndexGroup,
  type PrimeIndexHeader,
  QUESTION,
  SCALE_COLUMN,
} from './prime-index-format.ts';

/** Sharing, as this memory does it: what it shares, receives, revokes and holds for others, and the layers it runs with. */
export { createStoreHolder, type HolderAnswer } from './holder.ts';
export {
  type LayerRefusal,
  type LoadedLayer,
  loadLayers,
  readLayerText,
  syncLayers,
} from './layers.ts';
export {
  type IncomingFile,
  RECEIVE_RULES,
  type ReceiveOptions,
  type ReceiveRefusal,
  type ReceiveReport,
  receive,
} from './receive.ts';
export { type Revocation, revoke } from './revoke.ts';
export {
  SHARE_RULES,
  type ShareOptions,
  type ShareRefusal,
  type ShareResult,
  share,
} from './share.ts';

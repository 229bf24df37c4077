export {
  type CommonsClient,
  type CommonsClientOptions,
  createCommonsClient,
  type IndexPage,
  type IndexQuery,
  type LessonStateName,
  type ListedLesson,
  type PublishResult,
  pullFromCommons,
  type ServerRefusal,
} from './commons-client.ts';
export {
  fetchMemoryFiles,
  type MemoryFile,
  memoryFileBody,
  memoryFileName,
  publishMemoryFile,
  type ReadFilesOptions,
  readMemoryFiles,
  writeMemoryFile,
} from './folder.ts';
export {
  type AcceptResult,
  type CheckOptions,
  createGossipRoutes,
  type GossipDeps,
  type GossipHolder,
  type HolderRefusal,
  indexOf,
  type Offer,
  offersFrom,
  type PeerReport,
  type PullOptions,
  type PullRefusal,
  type PullReport,
  peerUrl,
  pullFromPeers,
  readLimited,
  type TakeResult,
  takeOffer,
} from './gossip.ts';
export { createMemoryHolder } from './memory-holder.ts';
export {
  type NightlyPull,
  type NightlyPullOptions,
  type PulledTotals,
  peersToAnnounce,
  pullFromKnownPeers,
} from './peers.ts';
export {
  type GossipSimulation,
  renderSimulation,
  type SimulationOptions,
  type SimulationRow,
  simulateGossip,
} from './simulate.ts';

export { appendMember, appendToArchive, archivePathFor, compressMember, readArchive } from './archive.ts';
export { assemble } from './assemble.ts';
export { claudeCodeReader } from './claude-code.ts';
export { codexReader } from './codex.ts';
export { discoverTranscripts } from './discover.ts';
export { eventKey, eventSchema, parseEventLine, type RememEvent } from './events.ts';
export { countLines, type Increment, type ReadMark, readIncrement } from './increment.ts';
export { forEachLine } from './lines.ts';
export type { Conversation, LineResult, LineWarning, Reader, Turn, TurnBase, TurnBody } from './types.ts';

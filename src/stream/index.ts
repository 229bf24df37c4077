export { type AiderSession, aiderReader, aiderSessionLines } from './aider.ts';
export {
  type ArchiveTarget,
  appendMember,
  appendToArchive,
  archivePathFor,
  type Compressed,
  type Compressor,
  openCompressor,
  readArchive,
  writeArchiveMeta,
} from './archive.ts';
export { assemble } from './assemble.ts';
export { claudeCodeReader } from './claude-code.ts';
export { clineFolder, clineReader, clineTaskLines } from './cline.ts';
export { codexReader } from './codex.ts';
export { continueReader, continueSessionLines } from './continue.ts';
export {
  type CopilotSessionState,
  copilotChatReader,
  copilotSessionLines,
  copilotSessionState,
} from './copilot-chat.ts';
export { type CursorRows, cursorComposerLines, cursorReader } from './cursor.ts';
export {
  type CopilotSessionFile,
  type CursorStores,
  discoverCopilotSessions,
  discoverCursorStores,
  discoverTranscripts,
  subfolders,
  workspaceFolder,
} from './discover.ts';
export { eventFields, eventKey, eventSchema, parseEventLine, type RememEvent } from './events.ts';
export { geminiCliReader } from './gemini-cli.ts';
export { appendToInbox } from './inbox.ts';
export { countLines, type Increment, type ReadMark, readIncrement, releaseRead } from './increment.ts';
export { forEachLine, forEachLineRange, type LongLines } from './lines.ts';
export { type OpencodeRows, opencodeReader, opencodeSessionLines } from './opencode.ts';
export { type ProxyLogLine, proxyLogReader } from './proxy-log.ts';
export { rulesToEvents } from './rules-import.ts';
export { type SpecstoryExport, specstoryReader, specstorySessionLines } from './specstory.ts';
export type { Conversation, LineResult, LineWarning, Reader, Turn, TurnBase, TurnBody } from './types.ts';

export { claudeProjectName } from './claude-folder.ts';
export {
  memoryTools,
  promptBlock,
  type RenderFormat,
  renderFormats,
  toolsFor,
  visibleLines,
} from './formats.ts';
export { BEGIN, END, withBlock, withoutBlock } from './managed-block.ts';
export {
  type RenderAgent,
  type RenderReport,
  removeRendered,
  renderMemory,
} from './render.ts';

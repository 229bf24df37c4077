import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** Claude Code names a project's folder after its path, every character that is not a letter or digit a dash. */
export function claudeProjectName(project: string): string {
  return project.replace(/[^A-Za-z0-9]/g, '-');
}

/** `autoMemoryDirectory` from Claude Code's user settings, when the person moved the memory folder. */
export function autoMemoryDirectory(claudeDir: string, userHome: string): string | null {
  const path = join(claudeDir, 'settings.json');
  if (!existsSync(path)) return null;
  try {
    const value = (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>)['autoMemoryDirectory'];
    if (typeof value !== 'string' || !value) return null;
    if (value.startsWith('~/')) return join(userHome || homedir(), value.slice(2));
    return isAbsolute(value) ? value : null;
  } catch {
    return null;
  }
}

/** The auto-memory folder of a project, when Claude Code knows the project on this machine. */
export function claudeMemoryFolder(claudeDir: string, project: string): string | null {
  const folder = join(claudeDir, 'projects', claudeProjectName(project));
  return existsSync(folder) ? join(folder, 'memory') : null;
}

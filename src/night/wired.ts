import type { RenderAgent } from '../render/index.ts';

/** The agents render may write for: those the person wired with `remem setup` (consent). */
export async function wiredForRender(home: string): Promise<Set<RenderAgent>> {
  const { wiredAgents } = await import('../setup/index.ts');
  const wired = wiredAgents(home);
  return new Set((['claude-code', 'codex'] as const).filter((agent) => wired.has(agent)));
}

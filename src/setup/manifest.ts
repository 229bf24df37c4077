import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { RememError } from '../core/index.ts';
import type { Manifest } from './types.ts';

/** What setup added where, kept under REMEM_HOME so that `--remove` takes out exactly that. */
export function manifestPath(rememHome: string): string {
  return join(rememHome, 'setup.json');
}

const json = z.json();

const additionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('mcp'), value: json, previous: json.optional(), createdParent: z.boolean() }),
  z.object({
    kind: z.literal('hook'),
    event: z.string(),
    group: json,
    createdEvent: z.boolean(),
    createdParent: z.boolean(),
  }),
  z.object({ kind: z.literal('toml'), block: z.string(), prefix: z.string() }),
]);

const manifestSchema = z.object({
  version: z.literal(1),
  files: z.record(
    z.string(),
    z.object({ agent: z.string(), created: z.boolean(), additions: z.array(additionSchema) }),
  ),
  schedule: z
    .object({
      scheduler: z.enum(['cron', 'systemd', 'launchd']),
      entry: z.string(),
      createdCrontab: z.boolean().optional(),
    })
    .optional(),
});

export function emptyManifest(): Manifest {
  return { version: 1, files: {} };
}

export function readManifestText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

export function parseManifest(path: string, text: string | null): Manifest {
  if (text === null) return emptyManifest();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RememError('bad_manifest', `${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RememError('bad_manifest', `${path}: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data as Manifest;
}

export function serializeManifest(manifest: Manifest): string | null {
  const empty = Object.keys(manifest.files).length === 0 && manifest.schedule === undefined;
  return empty ? null : `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * The agents the person wired with `remem setup` (and has not removed since): the consent to write where
 * those agents read. Nothing outside REMEM_HOME is written for any other.
 */
export function wiredAgents(rememHome: string): Set<string> {
  const path = manifestPath(rememHome);
  try {
    return new Set(
      Object.values(parseManifest(path, readManifestText(path)).files).map((file) => file.agent),
    );
  } catch {
    return new Set();
  }
}

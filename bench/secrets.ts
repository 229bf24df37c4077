/**
 * `npm run bench -- secrets [--data DIR]`: how many of a corpus of secrets the secret check finds, how many
 * look-alikes it flags, and how many rows of the labelled data (real code and logs) it flags, each named so a
 * person can look at it. Then how many ordinary observations (the labelled surprise and correction texts) the
 * instruction check refuses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { knownSecrets } from '../src/core/known-secrets.ts';
import { findImperative } from '../src/core/observation.ts';
import { findSecret, maskSecrets, ownSecret } from '../src/core/secrets.ts';
import { findDataDir, hasData } from '../test/episodes/score.ts';

/** Strings the check must find: one per kind of credential, written the way they appear in sessions. */
const secrets: readonly string[] = [
  'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
  'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
  'AKIAIOSFODNN7EXAMPLE',
  'token: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'api_key="4c1f3a9e7b2d4e6f8a0b1c2d3e4f5a6b"',
  'ghp_1234567890abcdefghijABCDEFGHIJ123456',
  'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV',
  'sk-proj-4fJk2LmN8pQrStUvWxYz0123456789',
  'sk-ant-api03-abcdefghijklmnopqrstuvwx',
  'xoxb-1234567890-abcdefghij',
  'https://hooks.slack.com/services/T000/B000/XXXXXXXX',
  'AIzaSyA1234567890abcdefghijklmnopqrstuv',
  'sk_live_abcdefghijklmnop1234',
  'glpat-abcdefghij1234567890',
  'npm_abcdefghijklmnopqrstuvwxyz0123456789',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----',
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----',
  'postgres://admin:hunter2@db.example.com/app',
  'mongodb+srv://app:S3cretPass@cluster0.mongodb.net/prod',
  'Authorization: Bearer abcdef0123456789abcdef',
  'password=hunter2!',
  'DB_PASSWORD: "c0rrect-h0rse-battery"',
  'the key was Zx8Qp2LmN4vR7tY1wK9sB3dF6gH0jA5c stored',
  'shpat_0123456789abcdefABCDEF0123456789ab',
  'lin_api_0123456789abcdefghijABCDEFGHIJ0123456789abcd',
  'hf_abcdefghijklmnopqrstuvwxyzABCDEFGH',
  'https://deploy:Passw0rd123@git.example.com/repo.git',
];

/** Strings that look like secrets and are not: digests, identifiers, placeholders, ordinary code. */
const lookAlikes: readonly string[] = [
  'commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
  'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'const token = getToken(request);',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a placeholder as written in a config file
  'password: ${DB_PASSWORD}',
  'api_key=<your-api-key>',
  'OPENAI_API_KEY=your_key_here',
  'secret = os.environ["SECRET"]',
  'token: process.env.GITHUB_TOKEN',
  '-DVCPKG_TARGET_TRIPLET=x64-windows-static-md',
  'src/components/UserProfileSettingsPanel.tsx',
  'https://example.com/docs/getting-started#installation',
  'Authorization: Bearer <token>',
  'uuid 123e4567-e89b-12d3-a456-426614174000',
  'node_modules/@typescript-eslint/eslint-plugin/dist/index.js',
  'postgres://db.example.com:5432/app',
  'The password field must be at least 8 characters.',
  'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")',
  'key: value',
];

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

interface Row {
  file: string;
  id: string;
  texts: string[];
  record: Record<string, unknown>;
}

function readAll(dir: string): Row[] {
  const rows: Row[] = [];
  for (const sub of ['', 'batch2']) {
    const at = join(dir, sub);
    for (const file of readdirSync(at).filter((name) => name.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(at, file), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const record = JSON.parse(line) as Record<string, unknown>;
        const { source: _source, id, label: _label, why: _why, ...rest } = record;
        rows.push({ file: join(sub, file), id: String(id), texts: stringsOf(rest), record });
      }
    }
  }
  return rows;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { data: { type: 'string' } } });
  const found = secrets.filter((text) => findSecret(text) !== null);
  const byPreset = secrets.filter((text) => knownSecrets(text).length > 0);
  const byOwn = secrets.filter((text) => ownSecret(text) !== null);
  const leaked = secrets.filter((text) => maskSecrets(text) === text);
  const falseAlarms = lookAlikes.filter((text) => findSecret(text) !== null);
  console.log(`corpus: ${found.length}/${secrets.length} secrets found, ${leaked.length} left unmasked`);
  for (const text of secrets.filter((s) => !found.includes(s))) console.log(`  missed: ${text}`);
  console.log(
    `  of them, the maintained rule set (secretlint's recommended preset) finds ${byPreset.length}, Remem's own rules ${byOwn.length}; the preset alone ${byPreset.filter((t) => !byOwn.includes(t)).length}, the own rules alone ${byOwn.filter((t) => !byPreset.includes(t)).length}`,
  );
  console.log(`look-alikes: ${falseAlarms.length}/${lookAlikes.length} flagged`);
  for (const text of falseAlarms) console.log(`  flagged: ${text} (${findSecret(text)})`);

  const dir = findDataDir(values.data);
  if (!hasData(dir)) {
    console.log('labelled data: not found (pass --data DIR)');
    return;
  }
  const rows = readAll(dir);
  const flagged = rows.flatMap((row) => {
    const reason = row.texts.map(findSecret).find((r) => r !== null);
    return reason ? [{ row, reason }] : [];
  });
  console.log(`labelled rows flagged as carrying a secret: ${flagged.length}/${rows.length}`);
  for (const { row, reason } of flagged) {
    const text = row.texts.find((t) => findSecret(t) !== null)!;
    const masked = maskSecrets(text);
    const at = Math.max(0, masked.indexOf('[secret]') - 50);
    console.log(`  ${row.file} ${row.id}: ${reason}: …${masked.slice(at, at + 110).replace(/\s+/g, ' ')}…`);
  }

  // Corrections a person made and surprises an agent met: what lessons are worded from.
  const observations = rows.filter(
    (row) => row.record['label'] === 'surprise' || row.record['label'] === 'correction',
  );
  const texts = observations.flatMap((row) => {
    const text = row.record['text'] ?? row.record['said'];
    return typeof text === 'string' && text.trim() ? [{ row, text }] : [];
  });
  const refused = texts.filter(({ text }) => findImperative(text) !== null);
  console.log(`ordinary observations refused as instructions: ${refused.length}/${texts.length}`);
  for (const { row, text } of refused)
    console.log(
      `  ${row.file} ${row.id}: ${findImperative(text)}: ${text.slice(0, 90).replace(/\s+/g, ' ')}`,
    );
}

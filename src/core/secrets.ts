/**
 * Secret detection: nothing that looks like a credential or a private address leaves the machine (DESIGN.md §6).
 * Each rule names what it finds; `secretGroup` is the part to mask when the rest of the match is harmless context.
 */

import { knownSecrets } from './known-secrets.ts';

export interface SecretRule {
  /** Why a text carrying it is refused: "an API key (sk-…)". */
  reason: string;
  /** Global, with indices (`gd`), so the secret part can be located. */
  pattern: RegExp;
  /** The capture group that holds the secret; the whole match when absent. */
  secretGroup?: number;
  /** A second look at the secret part, for rules whose shape alone also matches harmless text. */
  accept?: (secret: string) => boolean;
  /** Texts the rule must catch. */
  examples: readonly string[];
}

const privateHost = String.raw`(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|169\.254(?:\.\d{1,3}){2}|\[(?:::1|f[cd][0-9a-f]{2}:[0-9a-f:]*)\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:internal|local|localdomain|lan|corp|intranet|home\.arpa))`;

/** Placeholders people write where a secret would go: `<token>`, `${API_KEY}`, `****`, `your_key_here`. */
function isPlaceholder(value: string): boolean {
  return (
    /^[<${[*%(]/.test(value) ||
    /^(?:x+|\.+|-+|your[_-].*|changeme|example|placeholder|redacted|null|none|undefined|true|false|required|empty)$/i.test(
      value,
    ) ||
    /\b(?:env|environ|getenv|secrets)\b/i.test(value)
  );
}

/** An assigned value that could be a credential: long enough, and not an ordinary word. */
function looksAssigned(value: string): boolean {
  if (isPlaceholder(value) || value.length < 6) return false;
  if (/^[A-Za-z_$][\w$.]*\(/.test(value)) return false; // a call in code: `token = getToken(request)`
  return /[\d\W_]/.test(value) || value.length >= 16;
}

/**
 * A long token with the mixed alphabet of a random string: both cases and digits, changing class often
 * (`mNvrDpaA9qquD5xi…`), unlike an identifier, a flag or a hex digest (`-DVCPKG_TARGET_TRIPLET=x64-windows`).
 */
function looksRandom(token: string): boolean {
  // Base64 of 30 random bytes (an AWS secret key) can hold a single digit; its slashes and pluses say enough.
  const digitsNeeded = token.length >= 40 && /[+/]/.test(token) ? 0 : 2;
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || (token.match(/\d/g)?.length ?? 0) < digitsNeeded)
    return false;
  const classes = [...token.replace(/[^A-Za-z0-9]/g, '')].map((c) =>
    /[a-z]/.test(c) ? 'l' : /[A-Z]/.test(c) ? 'u' : 'd',
  );
  let changes = 0;
  for (let i = 1; i < classes.length; i++) if (classes[i] !== classes[i - 1]) changes++;
  return changes >= classes.length * 0.3;
}

/** Slashes in a path, not in base64: it starts at the root, or one of its parts is a plain word. */
function looksLikePath(value: string): boolean {
  return (
    value.includes('/') &&
    (value.startsWith('/') || value.split('/').some((part) => /^[a-z]{3,}$/.test(part)))
  );
}

/** Shannon entropy of `text` in bits a character: a random hex string comes near 4, a repeated one near 0. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / text.length) * Math.log2(n / text.length);
  return bits;
}

export const secretRules: readonly SecretRule[] = [
  {
    reason: 'a private key block',
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/dg,
    examples: [
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----',
    ],
  },
  {
    reason: 'a JSON Web Token',
    pattern: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/dg,
    examples: ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  },
  {
    reason: 'an API key (sk-…)',
    pattern: /\b(?:sk|rk)-[A-Za-z0-9_-]{20,}/dg,
    examples: ['sk-proj-4fJk2LmN8pQrStUvWxYz0123456789', 'sk-ant-api03-abcdefghijklmnopqrstuvwx'],
  },
  {
    reason: 'a GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/dg,
    examples: ['ghp_1234567890abcdefghijABCDEFGHIJ123456'],
  },
  {
    reason: 'a Slack token or webhook',
    pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]+/dg,
    examples: ['xoxb-1234567890-abcdefghij', 'https://hooks.slack.com/services/T000/B000/XXXXXXXX'],
  },
  {
    reason: 'an AWS access key id',
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/dg,
    examples: ['AKIAIOSFODNN7EXAMPLE'],
  },
  {
    reason: 'a cloud or package registry token',
    pattern:
      /\b(?:AIza[0-9A-Za-z_-]{35}|[rs]k_(?:live|test)_[0-9A-Za-z]{16,}|npm_[A-Za-z0-9]{36}|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z]{30,}|pypi-[A-Za-z0-9_-]{50,})/dg,
    examples: [
      'AIzaSyA1234567890abcdefghijklmnopqrstuv',
      'sk_live_abcdefghijklmnop1234',
      'glpat-abcdefghij1234567890',
    ],
  },
  {
    reason: 'an authorization header',
    pattern: /\b((?:Bearer|Basic|Token)\s+)([A-Za-z0-9._~+/=-]{16,})/dg,
    secretGroup: 2,
    accept: (value) => !isPlaceholder(value),
    examples: ['Authorization: Bearer abcdef0123456789abcdef'],
  },
  {
    reason: 'a URL with credentials',
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/([^\s/?#@:]*:[^\s/?#@]+|[A-Za-z0-9_-]{20,})@/dgi,
    secretGroup: 1,
    examples: [
      'postgres://admin:hunter2@db.example.com/app',
      'https://ghs_abcdefghij0123456789@github.com/o/r',
    ],
  },
  {
    reason: 'a password or token assignment',
    pattern:
      /\b(?:[a-z0-9]+[_-])*(?:password|passwd|pwd|pass|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|credentials?)["']?\s*[:=]\s*["']?([^\s"',;]+)/dgi,
    secretGroup: 1,
    accept: looksAssigned,
    examples: [
      'password=hunter2',
      'GITHUB_TOKEN: 0123456789abcdef',
      'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG',
    ],
  },
  {
    reason: 'a private or internal address',
    pattern: new RegExp(
      String.raw`\b[a-z][a-z0-9+.-]*:\/\/(?:[^\s/@]*@)?${privateHost}(?::\d+)?(?:[/?#][^\s"'<>)\]]*)?|\b${privateHost}:\d{2,5}\b`,
      'dgi',
    ),
    examples: [
      'http://localhost:3000/admin',
      'https://10.0.4.12/api',
      'http://grafana.corp.internal',
      '192.168.1.20:8080',
    ],
  },
  {
    reason: 'a key-like word followed by a random value',
    pattern:
      /\b(?:[a-z0-9]+[_-])*(?:secret|token|password|passwd|api[_ -]?key|access[_ -]?key|key|auth|credentials?)s?\b[^\n]{0,30}?(?<![A-Za-z0-9+/_=-])([0-9a-f]{32,}|[A-Za-z0-9+/_=-]{30,})(?![A-Za-z0-9+/_=-])/dgi,
    secretGroup: 1,
    accept: (value) =>
      /^[0-9a-f]+$/.test(value) ? entropy(value) >= 3 : !looksLikePath(value) && looksRandom(value),
    examples: [
      'the token is 3f9a1c07b2d84e6f5a0c9e1b7d3f2a8c4e6b0d1f3a5c7e9b2d4f6a8c0e1b3d5f',
      'the AWS secret was wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
    ],
  },
  {
    reason: 'a long random token',
    pattern: /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_=-]{32,}(?![A-Za-z0-9+/_=-])/dg,
    accept: (value) => !looksLikePath(value) && looksRandom(value),
    examples: [
      'the value was Zx8Qp2LmN4vR7tY1wK9sB3dF6gH0jA5c stored',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
    ],
  },
];

interface Found {
  start: number;
  end: number;
  reason: string;
}

function findAll(text: string, known = true): Found[] {
  const found: Found[] = [];
  for (const rule of secretRules) {
    // `exec` on the rule's own pattern, not `matchAll`, which copies the pattern for every text: ingest masks
    // thousands of fields, and the copies cost more than the searches.
    const { pattern } = rule;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0] === '') pattern.lastIndex++;
      const span = match.indices?.[rule.secretGroup ?? 0];
      if (span === undefined) continue;
      if (rule.accept !== undefined && !rule.accept(text.slice(span[0], span[1]))) continue;
      found.push({ start: span[0], end: span[1], reason: rule.reason });
    }
  }
  if (known) {
    // Where a rule of Remem's own found the secret part inside what the preset found (the password of a
    // connection string), the narrower span stands: the rest of the match is harmless context.
    const own = found.slice();
    for (const { start, end, rule } of knownSecrets(text)) {
      if (own.some((span) => span.start >= start && span.end <= end)) continue;
      found.push({
        start,
        end,
        reason: `a ${rule.replace(/-/g, ' ')} secret (a format the maintained rule set knows)`,
      });
    }
  }
  return found.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** Why `text` looks like it carries a secret ("looks like a GitHub token"), or null. */
export function findSecret(text: string): string | null {
  const first = findAll(text)[0];
  return first === undefined ? null : `looks like ${first.reason}`;
}

/** What Remem's own rules alone would name (the maintained rule set left out): for measuring each's share. */
export function ownSecret(text: string): string | null {
  const first = findAll(text, false)[0];
  return first === undefined ? null : `looks like ${first.reason}`;
}

/** `text` with the secret part of everything `findSecret` would name replaced by `[secret]`. */
export function maskSecrets(text: string): string {
  let out = '';
  let at = 0;
  for (const { start, end } of findAll(text)) {
    if (start < at) {
      at = Math.max(at, end); // overlaps the span just masked: widen it
      continue;
    }
    out += text.slice(at, start) + '[secret]';
    at = end;
  }
  return out + text.slice(at);
}

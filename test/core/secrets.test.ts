import { describe, expect, it } from 'vitest';
import { knownSecrets } from '../../src/core/known-secrets.ts';
import { findSecret, maskSecrets, ownSecret, secretRules } from '../../src/core/secrets.ts';

describe('findSecret', () => {
  it.each(secretRules.flatMap((rule) => rule.examples.map((example) => [rule.reason, example])))(
    'finds %s in %j',
    (reason, example) => {
      expect(ownSecret(`Seen in the logs: ${example} yesterday`)).toBe(`looks like ${reason}`);
      expect(findSecret(`Seen in the logs: ${example} yesterday`)).not.toBeNull();
    },
  );

  it.each([
    'The token expired after 15 minutes.',
    'The password prompt blocks the CLI in CI.',
    'token: expired',
    'password=<your password>',
    'API_KEY=$API_KEY is read from the environment',
    'token=process.env.TOKEN',
    'The docs at https://example.com/guide are out of date.',
    'Commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 broke the build.',
    'The id 123e4567-e89b-12d3-a456-426614174000 was reused.',
    '.env.local and settings.local.json are not committed.',
    'The server binds to localhost only.',
    'git@github.com:owner/repo.git clones over SSH.',
    'sk-learn is not a package; scikit-learn is.',
    'The flag -DVCPKG_TARGET_TRIPLET=x64-windows-static-md picks the triplet.',
    'A getUserAccountSettingsFromRemoteServer2 call times out.',
    'const token = getToken(request);',
    'apiKey: config.readKey("openai")',
  ])('lets %j through', (text) => {
    expect(findSecret(text)).toBe(null);
  });
});

describe('maskSecrets', () => {
  it.each([
    ['password=hunter2 on staging', 'password=[secret] on staging'],
    ['export GITHUB_TOKEN: ghp_1234567890abcdefghijABCDEFGHIJ123456', 'export GITHUB_TOKEN: [secret]'],
    ['postgres://admin:hunter2@db.example.com/app', 'postgres://[secret]@db.example.com/app'],
    ['Authorization: Bearer abcdef0123456789abcdef', 'Authorization: Bearer [secret]'],
    ['see http://localhost:3000/admin for it', 'see [secret] for it'],
    ['keys AKIAIOSFODNN7EXAMPLE and sk-proj-4fJk2LmN8pQrStUvWxYz0123456789', 'keys [secret] and [secret]'],
    ['nothing here', 'nothing here'],
  ])('masks %j', (text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });

  it('leaves nothing findSecret would find', () => {
    for (const rule of secretRules) {
      for (const example of rule.examples) expect(findSecret(maskSecrets(example))).toBe(null);
    }
  });
});

describe('the maintained rule set', () => {
  // Formats Remem's own rules do not name: they are found only because the preset knows them.
  const onlyThePreset = [
    'shpat_0123456789abcdefABCDEF0123456789ab',
    'lin_api_0123456789abcdefghijABCDEFGHIJ0123456789abcd',
  ];

  it('finds formats Remem has no rule of its own for, and masks them', () => {
    for (const text of onlyThePreset) {
      expect(ownSecret(text), text).toBeNull();
      expect(knownSecrets(text).length, text).toBeGreaterThan(0);
      expect(findSecret(text), text).toMatch(/maintained rule set/);
      expect(maskSecrets(`before ${text} after`)).toMatch(/^before .*\[secret\].* after$/);
    }
  });

  it('answers synchronously, spans in order, and flags none of the look-alikes', () => {
    const text =
      'token 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 and xoxb-123456789012-1234567890123-abcdefghijABCDEFGHIJklmn';
    const found = knownSecrets(text);
    expect(found.map((span) => span.rule)).toEqual(['github', 'slack']);
    expect(text.slice(found[0]!.start, found[0]!.end)).toBe('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');
    // A shell variable in a config line, written as the file has it: not a template.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text holds a literal ${…}
    for (const lookAlike of ['commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b', 'password: ${DB_PASSWORD}'])
      expect(knownSecrets(lookAlike)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { findSecret, maskSecrets, secretRules } from '../../src/core/secrets.ts';

describe('findSecret', () => {
  it.each(secretRules.flatMap((rule) => rule.examples.map((example) => [rule.reason, example])))(
    'finds %s in %j',
    (reason, example) => {
      expect(findSecret(`Seen in the logs: ${example} yesterday`)).toBe(`looks like ${reason}`);
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

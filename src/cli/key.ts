import { defineCommand } from './command.ts';

export const keyCommand = defineCommand({
  name: 'key',
  summary: "this memory's origin and public key (made on first need)",
  async run(context) {
    const { loadOrCreateIdentity } = await import('../protocol/index.ts');
    const { join } = await import('node:path');
    const identity = loadOrCreateIdentity(context.config.home);
    const publicKeyFile = join(context.config.home, 'keys', 'ed25519.pub.pem');
    return {
      json: { origin: identity.origin, key: identity.key, publicKeyFile },
      text: `origin ${identity.origin}\nkey    ${identity.key}`,
    };
  },
});

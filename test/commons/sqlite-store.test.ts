import { join } from 'node:path';
import { openCommonsStore } from '../../src/commons/index.ts';
import { tempDir } from './helpers.ts';
import { describeCommonsStore } from './store-conformance.ts';

describeCommonsStore('SQLite', {
  async fresh() {
    const url = `sqlite:${join(tempDir(), 'commons.db')}`;
    return { store: await openCommonsStore(url), again: () => openCommonsStore(url) };
  },
});

import { describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/cli/command.ts';

describe("a command's options are typed from its flags", () => {
  it('reads a declared option with the type its flag gives it; an undeclared one does not compile', async () => {
    const command = defineCommand({
      name: 'probe',
      summary: 'a command for the type check',
      options: [
        { flags: '-k, --k <n>', description: 'a number', parse: 'int', default: 5 },
        { flags: '--all-projects', description: 'a switch' },
        { flags: '--allow-host <name>', description: 'a list', parse: 'list' },
      ],
      async run(_context, _args, options) {
        const k: number = options.k;
        const all: boolean | undefined = options.allProjects;
        const hosts: string[] | undefined = options.allowHost;
        // @ts-expect-error: no such option was declared (npm run check fails if this line compiles)
        const missing = options.allProject;
        return { json: { k, all, hosts, missing }, text: '' };
      },
    });
    const answer = await command.run({} as never, [], { k: 7, allProjects: true, allowHost: ['a'] });
    expect(answer?.json).toEqual({ k: 7, all: true, hosts: ['a'], missing: undefined });
  });
});

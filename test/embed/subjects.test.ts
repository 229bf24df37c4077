import { describe, expect, it } from 'vitest';
import {
  callSubjects,
  lessonSubjects,
  sharedCommands,
  subjectsMeet,
  subjectsOf,
} from '../../src/embed/index.ts';

const terms = (subjects: { terms: Set<string> }) => [...subjects.terms].sort();

describe('what a lesson, a prompt or a call is about', () => {
  it('a rule about a tool is about its commands and their theme; a prompt about what the tool does meets it', () => {
    const rule = subjectsOf('no, use pnpm not npm');
    expect(terms(rule)).toEqual(['command:npm', 'command:pnpm', 'theme:packages']);
    expect(subjectsMeet(rule, subjectsOf('add dayjs to the dependencies'))).toBe(true);
    expect(subjectsMeet(rule, subjectsOf('rename the export button'))).toBe(false);
    expect(terms(subjectsOf('edit package.json by hand'))).toContain('file:package.json');
  });

  it("a call is about each segment's program, a runner's program and the files it touches", () => {
    expect(terms(callSubjects('cd web && CI=1 npm install dayjs', []))).toEqual(['command:npm']);
    expect(terms(callSubjects('uv run pytest -q | tail -5', []))).toEqual(['command:pytest', 'command:uv']);
    expect(terms(callSubjects('npx vitest --grep x', []))).toEqual(['command:npx', 'command:vitest']);
    expect(terms(callSubjects('', ['/repo/package.json']))).toEqual(['file:package.json']);
    // A call names what it runs; themes are a prompt's way in.
    expect(subjectsMeet(callSubjects('npm install dayjs', []), subjectsOf('no, use pnpm not npm'))).toBe(
      true,
    );
    expect(subjectsMeet(callSubjects('ls -la', []), subjectsOf('no, use pnpm not npm'))).toBe(false);
  });

  it('a correction lesson is about what the person said, not the agent sentence it quotes', () => {
    const lesson =
      'When the agent said "Let me run pytest and git commit this", the person answered: "the header should be red"';
    expect(terms(subjectsOf(lesson))).toContain('theme:git');
    expect(terms(lessonSubjects(lesson))).toEqual([]);
    expect(
      terms(
        lessonSubjects('When the agent said "Installing it now.", the person answered: "use pnpm not npm"'),
      ),
    ).toEqual(['command:npm', 'command:pnpm', 'theme:packages']);
    // The call the person answered is left out as the agent's sentence is.
    expect(
      terms(
        lessonSubjects(
          'After the agent\'s Bash call "git commit -am wip", the person answered: "the header should be red"',
        ),
      ),
    ).toEqual([]);
    // A refused call is part of what the person said no to; a lesson of another shape keeps all its words.
    const refused = 'The person refused the agent\'s Bash call "npm install zod", saying: "not here"';
    expect(terms(lessonSubjects(refused))).toEqual(terms(subjectsOf(refused)));
  });

  it('a command that is also an everyday word names the command only where a command is written', () => {
    expect(terms(subjectsOf('make sure the header is red, then go on with the footer'))).toEqual([]);
    expect(terms(subjectsOf('a black border around the tree node'))).toEqual([]);
    expect(terms(subjectsOf('run make build first'))).toEqual(['command:make']);
    expect(terms(subjectsOf('the `make test` target is broken'))).toEqual(['command:make']);
    expect(terms(subjectsOf('$ go test ./...'))).toEqual(['command:go']);
    expect(terms(subjectsOf('format it with `black`'))).toEqual(['command:black', 'theme:lint']);
    // Words that are only commands count everywhere.
    expect(terms(subjectsOf('make sure pnpm is used'))).toEqual(['command:pnpm', 'theme:packages']);
  });

  it('two rules share a command only when both name it', () => {
    expect(sharedCommands(subjectsOf('use pnpm not npm'), subjectsOf('pnpm, not npm!!'))).toBe(true);
    expect(sharedCommands(subjectsOf('use pnpm not npm'), subjectsOf('uv run, not python'))).toBe(false);
  });
});

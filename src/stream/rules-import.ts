/**
 * A person's written rules (CLAUDE.md, AGENTS.md, .cursorrules) as events (protocol §0): each rule a `note` in
 * the person's own words, scoped to the project the file sits in. A rule is a list item, or a paragraph; headings
 * and fenced code carry no rule of their own and are left out.
 */
export function rulesToEvents(text: string, file: string, project: string): Buffer {
  const rules: string[] = [];
  let paragraph: string[] = [];
  let fenced = false;
  const flush = () => {
    const rule = paragraph.join(' ').trim();
    if (rule) rules.push(rule);
    paragraph = [];
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      flush();
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (line === '' || /^#{1,6}\s/.test(line) || /^(-{3,}|\*{3,}|_{3,})$/.test(line)) {
      flush();
      continue;
    }
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      paragraph.push(item[1] ?? '');
      continue;
    }
    paragraph.push(line);
  }
  flush();
  const session = `import:${file}`;
  return Buffer.from(
    rules
      .map(
        (rule) => `${JSON.stringify({ kind: 'note', text: rule, cwd: project, agent: 'import', session })}\n`,
      )
      .join(''),
  );
}

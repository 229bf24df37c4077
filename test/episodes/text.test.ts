import { describe, expect, it } from 'vitest';
import { closingSentence } from '../../src/episodes/text.ts';

describe('the agent sentence a correction answered', () => {
  it('is the closing sentence of the reply, its fenced code left out', () => {
    expect(
      closingSentence('I changed the loader.\n\n```ts\nload();\n```\n\nThe list should now render.'),
    ).toBe('The list should now render.');
    // A short closing takes the sentences before it, up to 40 characters.
    expect(closingSentence('Done. I changed the loader to read lazily. It renders now.')).toBe(
      'I changed the loader to read lazily. It renders now.',
    );
  });

  it('keeps a file name or a version whole', () => {
    expect(closingSentence('Let me look at the current tasks.json file.')).toBe(
      'Let me look at the current tasks.json file.',
    );
    expect(closingSentence('Materials for section 2.3.3 are ready, as the course asks.')).toBe(
      'Materials for section 2.3.3 are ready, as the course asks.',
    );
  });

  it('passes over code no fence marked for the last sentence that reads as prose', () => {
    const aider = [
      'I fixed the pin drawing.',
      '',
      'lsfl/gui/canvas.py',
      '<<<<<<< SEARCH',
      '    def mousePressEvent(self, event):',
      '=======',
      '        self.update();',
      '>>>>>>> REPLACE',
    ].join('\n');
    expect(closingSentence(aider)).toBe('I fixed the pin drawing.');
    const exported =
      'The page now loads the data.\n\ndebugLeagueStats() // Show app state\nrefresh() // Refresh';
    expect(closingSentence(exported)).toBe('The page now loads the data.');
  });

  it('keeps the closing words of a reply that is code alone, and of one written without spaces', () => {
    expect(closingSentence('const x = load();')).toBe('const x = load();');
    expect(closingSentence('修正しました。確認してください。')).toBe('修正しました。確認してください。');
  });
});

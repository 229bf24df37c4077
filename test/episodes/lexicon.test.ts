import { describe, expect, it } from 'vitest';
import { flat } from '../../src/episodes/model/features.ts';
import { lexicon } from '../../src/episodes/model/lexicon.ts';

/** The concepts of a message as the detector reads it: flattened, ASCII or not as it is. */
const concepts = (message: string) => lexicon(flat(message)).sort();

describe('the correcting lexicon', () => {
  it('reads the same concepts whatever the language', () => {
    expect(concepts('Why does it still not work?')).toEqual(['not-working', 'still', 'why']);
    expect(concepts('Kenapa masih tidak bisa?')).toEqual(['not-working', 'still', 'why']);
    expect(concepts('Waarom werkt het nog steeds niet?')).toEqual(['not-working', 'still', 'why']);
    expect(concepts('Tại sao vẫn không chạy?')).toEqual(['not-working', 'still', 'why']);
    expect(concepts('Per què encara falla?')).toEqual(['error', 'still', 'why']);
  });

  it('reads an opening no, a revert and an instead in the languages added last', () => {
    expect(concepts('Nee, zet het terug')).toEqual(['no', 'revert']);
    expect(concepts('Tidak, jangan hapus file itu')).toEqual(['dont', 'no']);
    expect(concepts('Không, dùng pnpm thay vì npm')).toEqual(['instead', 'no']);
    expect(concepts('Maksud saya perbaiki yang salah saja')).toEqual(['fix', 'told', 'wrong']);
  });

  it('leaves English words that only begin like them alone', () => {
    for (const message of ['She said the gala was a success', 'The saint of fouta', 'A masihi gagaku']) {
      expect(lexicon(flat(message), true), message).toEqual([]);
      expect(lexicon(flat(message), false), message).toEqual([]);
    }
  });

  it('reads an ASCII message with its ASCII twins as with the full patterns', () => {
    for (const message of ['kenapa masih salah', 'waarom werkt het niet', 'doe dat niet, stop met', 'nee']) {
      expect(lexicon(message, true), message).toEqual(lexicon(message, false));
    }
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultParams } from '../../src/core/index.ts';
import { cosine, fnv1a, hashedSpace, hashedVector, hashFeature, tokenize } from '../../src/embed/index.ts';

const space = hashedSpace(defaultParams);
const embed = (text: string): Float32Array => space.embedSync!(text);
const similarity = (a: string, b: string): number => cosine(embed(a), embed(b));
const norm = (v: Float32Array): number => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));

function referenceFnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193);
  return h >>> 0;
}

describe('tokenize', () => {
  it.each([
    ['Fix the failing TEST, please.', ['fix', 'the', 'failing', 'test', 'please']],
    ["Don't ask me", ['dont', 'ask', 'me']],
    ['Don’t ask me', ['dont', 'ask', 'me']],
    ['donʼt ask me', ['dont', 'ask', 'me']],
    ["'quoted' words", ['quoted', 'words']],
    ["l'erreur est là, qu'il dit", ['erreur', 'est', 'là', 'il', 'dit']],
    ["I'm sure it's fine", ['im', 'sure', 'its', 'fine']],
    ['snake_case and kebab-case v2.1', ['snake', 'case', 'and', 'kebab', 'case', 'v2', '1']],
    ['ＦＵＬＬ　ｗｉｄｔｈ', ['full', 'width']],
    ['Это не работает', ['это', 'не', 'работает']],
    ['यह ठीक नहीं है', ['यह', 'ठीक', 'नहीं', 'है']],
    ['这个不对', ['这个', '个不', '不对']],
    ['不对。用npm安装', ['不对', '用', 'npm', '安装']],
    ['コードを直して', ['コー', 'ード', 'ドを', 'を直', '直し', 'して']],
    ['ไม่ถูก', ['ไม่', 'ม่ถู', 'ถูก']],
    ['😀 ... !!!', []],
    ['', []],
  ])('%j', (text, terms) => {
    expect(tokenize(text)).toEqual(terms);
  });

  it('reads ASCII the same on its fast path as on the Unicode one', () => {
    // An em dash is a separator outside ASCII: adding it sends the text down the Unicode path.
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."aZ09 '-_.,!".split('')), maxLength: 40 }), (text) => {
        expect(tokenize(`${text}\u2014`)).toEqual(tokenize(text));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii' }), (text) => {
        expect(tokenize(`${text}\u2014`)).toEqual(tokenize(text));
      }),
    );
  });
});

describe('feature hashing', () => {
  it('is FNV-1a over the UTF-8 bytes', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(fnv1a(text)).toBe(referenceFnv1a(text));
      }),
    );
    expect(fnv1a('a\ud800b')).toBe(referenceFnv1a('a\ud800b'));
    expect(fnv1a('\udc00')).toBe(referenceFnv1a('\udc00'));
  });

  it('hashes a pair as the two terms joined by a space', () => {
    const pair = hashFeature('failing test');
    const v = hashedVector('failing test', 256);
    const dim = (pair & 0x7fffffff) % 256;
    expect(Math.sign(v[dim]!)).toBe(pair >>> 31 === 1 ? -1 : 1);
  });

  it('gives the same vector on every machine', () => {
    // Five features (three words, "the" left out, and two pairs), each in its own dimension.
    const v = hashedVector('Fix the failing test', 256);
    const signed = [...v].flatMap((x, i) => (x === 0 ? [] : [i * Math.sign(x)]));
    expect(signed).toEqual([14, -113, -130, -141, 223]);
    for (const x of v) if (x !== 0) expect(Math.abs(x)).toBeCloseTo(1 / Math.sqrt(5), 6);
  });

  it('leaves out the words that say how an English sentence is built, and keeps negations', () => {
    expect(hashedVector('Fix the failing test', 256)).toEqual(hashedVector('fix failing test', 256));
    expect(hashedVector('can you fix it for me, please?', 256)).toEqual(hashedVector('fix please', 256));
    expect(hashedVector('do not run the tests', 256)).not.toEqual(hashedVector('run the tests', 256));
    expect(hashedVector('it is what it is', 256).every((x) => x === 0)).toBe(true);
    // Another language's words are all kept.
    expect(hashedVector('die Tests laufen nicht', 256).filter((x) => x !== 0)).toHaveLength(7);
  });
});

describe('the hashed space', () => {
  it('names itself and takes its numbers from the parameters', () => {
    expect(space).toMatchObject({ name: 'hashed', kind: 'hashed', floor: 0, dims: 256 });
    expect(hashedSpace({ ...defaultParams, hashedDims: 100 }).embedSync!('a b c')).toHaveLength(100);
  });

  it('is deterministic, 256 dimensions, unit length', async () => {
    const text = 'The deploy failed because the migration ran twice.';
    const [a, b] = await space.embed([text, text]);
    expect(a).toHaveLength(256);
    expect(a).toEqual(b);
    expect(a).toEqual(embed(text));
    expect(norm(a!)).toBeCloseTo(1, 6);
  });

  it('keeps a paraphrase that shares words closer than an unrelated text', () => {
    const text = 'the tests fail because the database migration is missing';
    const paraphrase = 'tests fail: the database migration was missing';
    const unrelated = 'please make the header blue and centre the logo';
    expect(similarity(text, paraphrase)).toBeGreaterThan(0.5);
    expect(similarity(text, paraphrase)).toBeGreaterThan(similarity(text, unrelated) + 0.3);
  });

  it('puts "don\'t" and "dont" together', () => {
    expect(similarity("Don't ask me, just do it.", 'dont ask me just do it')).toBeCloseTo(1, 6);
    expect(similarity('Don’t ask me', "don't ask me")).toBeCloseTo(1, 6);
  });

  it.each([
    ['Chinese', '这个不对，你改错了文件', '不对，改错了', '请帮我写一个登录页面'],
    ['Japanese', 'そのコードは動きません', 'コードが動きません', '新しい機能を追加してください'],
    ['Thai', 'โค้ดนี้ไม่ถูกต้อง', 'ไม่ถูกต้อง', 'ช่วยเพิ่มปุ่มใหม่'],
    ['Russian', 'это не работает после обновления', 'не работает после обновления', 'добавь новую кнопку'],
    ['Hindi', 'यह कोड काम नहीं करता', 'कोड काम नहीं करता', 'नया बटन जोड़ो'],
    ['Korean', '이 코드는 작동하지 않습니다', '코드는 작동하지 않습니다', '새 버튼을 추가해 주세요'],
  ])('matches related texts in %s', (_language, text, related, unrelated) => {
    expect(similarity(text, related)).toBeGreaterThan(0.3);
    expect(similarity(text, related)).toBeGreaterThan(similarity(text, unrelated));
  });

  it('gives an empty text the zero vector, and cosine 0 with it', () => {
    for (const blank of ['', '   ', '?!… --']) {
      const v = embed(blank);
      expect(v).toHaveLength(256);
      expect(norm(v)).toBe(0);
      expect(cosine(v, embed('anything at all'))).toBe(0);
      expect(cosine(v, v)).toBe(0);
    }
  });
});

/**
 * A small cross-lingual lexicon the correction detector reads (`features.ts`): words of a few concepts that correct
 * an agent and an opening "no", in twelve languages. Each concept is one feature whatever the language, so that
 * weight learned from the rows of one language carries to the others. The agent's claim that its change works is
 * `CLAIM` in `features.ts`.
 */

import { asciiTwin, isAscii, testTwinned, twinned } from './ascii.ts';

/**
 * Words of a few concepts that correct an agent, in twelve languages (English, Chinese, Japanese, Spanish, French,
 * German, Portuguese, Italian, Russian, Polish, Turkish, Korean), each concept one feature whatever the language:
 * weight learned from the rows of one language carries to the others. Written from the languages, not from the
 * rows. Alphabetic entries match from the start of a word (stems); CJK entries anywhere.
 */
const LEXICON: readonly (readonly [string, readonly string[], readonly string[]])[] = [
  [
    'error',
    [
      'errors?(?![\\p{L}])',
      'exception',
      'bugs?(?![\\p{L}])',
      'crash',
      'fail',
      'broken',
      'breaks?(?![\\p{L}])',
      'fallo',
      'falla',
      'roto',
      'rota(?![\\p{L}])',
      'erreur',
      'échec',
      'planté',
      'plante(?![\\p{L}])',
      'cassé',
      'fehler',
      'kaputt',
      'absturz',
      'abgestürzt',
      'fehlgeschlagen',
      'erro(?![\\p{L}])',
      'falha',
      'quebr',
      'errore',
      'rotto',
      'fallit',
      'ошибк',
      'сбой',
      'упал',
      'слома',
      'błąd',
      'błęd',
      'awari',
      'zepsu',
      'hata',
      'başarısız',
      'çöktü',
      'bozuk',
    ],
    [
      '错误',
      '报错',
      '出错',
      '异常',
      '崩溃',
      '失败',
      'エラー',
      '例外',
      '失敗',
      'バグ',
      '落ち',
      '오류',
      '에러',
      '실패',
      '버그',
    ],
  ],
  [
    'wrong',
    [
      'wrong',
      'incorrect',
      'not right',
      'equivocad',
      'incorrecto',
      'faux(?![\\p{L}])',
      'fausse',
      'falsch',
      'nicht richtig',
      'errado',
      'incorreto',
      'sbagliat',
      'неправильн',
      'неверн',
      'не то(?![\\p{L}])',
      'źle',
      'błędn',
      'niepoprawn',
      'yanlış',
    ],
    ['不对', '错了', '不正确', '違う', '間違', '正しくない', '잘못', '틀렸', '틀린'],
  ],
  [
    'still',
    [
      'still(?![\\p{L}])',
      '(?<!(?:works?|working|fine|up) )again(?![\\p{L}])',
      'todavía',
      'sigue(?![\\p{L}])',
      'siguen(?![\\p{L}])',
      'aún(?![\\p{L}])',
      'otra vez',
      'de nuevo',
      'toujours',
      'encore',
      'immer noch',
      'noch immer',
      'wieder',
      'ainda',
      'de novo',
      'continua(?![\\p{L}])',
      'ancora',
      'di nuovo',
      'всё ещё',
      'все еще',
      'всё еще',
      'до сих пор',
      'снова',
      'опять',
      'nadal',
      'wciąż',
      'znowu',
      'ciągle',
      'hala(?![\\p{L}])',
      'hâlâ',
      'yine',
      'tekrar',
    ],
    ['还是', '仍然', '依然', '又', 'まだ', '再び', '아직', '여전히', '또 '],
  ],
  [
    'not-working',
    [
      "(?:does|did|is|was)(?:n'?t| not) work",
      'not work',
      'no effect',
      'nothing happen',
      'nothing changed',
      'no funciona',
      'no sirve',
      'no anda',
      'ne marche',
      'marche pas',
      'ne fonctionne',
      'fonctionne pas',
      'funktioniert nicht',
      'geht nicht',
      'klappt nicht',
      'não funciona',
      'nao funciona',
      'não está funcionando',
      'non funziona',
      'не работает',
      'не помогло',
      'не работают',
      'nie działa',
      'nie pomogło',
      'çalışmıyor',
      'olmadı',
      'işe yaramadı',
    ],
    [
      '不行',
      '不工作',
      '没用',
      '没反应',
      '没有效果',
      '不起作用',
      '无效',
      '動かない',
      '動作しない',
      '効かない',
      '反映されない',
      '작동하지',
      '안 돼',
      '안돼',
      '안 되',
      '안되',
    ],
  ],
  [
    'fix',
    [
      'fix',
      'repair',
      'arregl',
      'corrig',
      'repar',
      'beheb',
      'korrigier',
      'conserta',
      'correggi',
      'aggiust',
      'исправ',
      'почин',
      'napraw',
      'popraw',
      'düzelt',
    ],
    ['修复', '修正', '修改', '改一下', '解决', '直して', '直す', '고쳐', '수정'],
  ],
  [
    'revert',
    [
      'revert',
      'undo',
      'roll ?back',
      'put (?:it )?back',
      'restore',
      'revi[eé]rt',
      'deshac',
      'deshaz',
      'annul',
      'rétabli',
      'rückgängig',
      'zurücksetz',
      'wiederherstell',
      'desfa[zç]',
      'ripristin',
      'откат',
      'верни',
      'отмени',
      'cofnij',
      'przywróć',
      'geri al',
      'eski haline',
    ],
    ['撤销', '回滚', '还原', '恢复', '元に戻', '取り消', '되돌', '원래대로'],
  ],
  [
    'told',
    [
      'i said',
      'i told you',
      'i asked',
      'as i said',
      'i already',
      'i meant',
      'te dije',
      'ya te',
      'dije que',
      "je t'ai dit",
      "je t'avais",
      "j'ai dit",
      'je voulais dire',
      'ich habe (?:doch )?gesagt',
      'ich hab doch',
      'hab ich (?:doch )?gesagt',
      'ich sagte',
      'ich meinte',
      'eu disse',
      'eu falei',
      'já disse',
      'te disse',
      'quis dizer',
      'ti ho detto',
      'ho detto',
      'intendevo',
      'я же',
      'я сказал',
      'я просил',
      'я говорил',
      'я имел в виду',
      'mówiłem',
      'powiedziałem',
      'prosiłem',
      'chodziło mi',
      'söyledim',
      'dedim',
      'demek istedim',
    ],
    [
      '我说过',
      '我说了',
      '告诉过你',
      '我让你',
      '我的意思是',
      '言った',
      '言いました',
      '頼んだ',
      '말했',
      '했잖아',
    ],
  ],
  [
    'why',
    [
      'why (?:did|would|are|is|do|does|not|the hell)',
      'por qu[eé]',
      'pourquoi',
      'warum',
      'wieso',
      'perché',
      'почему',
      'зачем',
      'dlaczego',
      'czemu',
      'neden',
      'niye',
      'niçin',
    ],
    ['为什么', '为啥', '怎么又', 'なぜ', 'どうして', 'なんで', '왜'],
  ],
  [
    'dont',
    [
      "don'?t",
      'do not',
      'stop(?![\\p{L}])',
      "shouldn'?t",
      'no hagas',
      'deja de',
      'ne fais pas',
      'arrête',
      'hör auf',
      'lass das',
      'não faça',
      'para de',
      'non fare',
      'smetti',
      'не надо',
      'не делай',
      'хватит',
      'перестань',
      'nie rób',
      'przestań',
      'yapma',
      '하지 ?마',
      '그만',
    ],
    ['不要', '别', '不应该', 'しないで', 'やめて'],
  ],
  [
    'instead',
    [
      'instead',
      'rather than',
      'en lugar de',
      'en vez de',
      'plutôt',
      'au lieu de',
      'stattdessen',
      'sondern',
      'em vez de',
      'ao invés',
      'invece',
      'вместо',
      'а не(?![\\p{L}])',
      'zamiast',
      'yerine',
      '대신',
      '말고',
    ],
    ['而是', '应该是', '而不是', 'じゃなくて', 'ではなく'],
  ],
];
type Patterns = readonly (readonly [string, RegExp])[];
let patterns: { all: Patterns; ascii: Patterns } | null = null;

/**
 * The lexicon's patterns, compiled on first use: a process that never reads a message never builds them. Each with
 * its ASCII twin, which reads an ASCII message as the pattern does, faster (`ascii.ts`).
 */
function lexiconPatterns(): { all: Patterns; ascii: Patterns } {
  if (patterns) return patterns;
  const all = LEXICON.map(
    ([concept, alphabetic, anywhere]) =>
      [
        concept,
        new RegExp(`(?<![\\p{L}\\p{N}])(?:${alphabetic.join('|')})|${anywhere.join('|')}`, 'u'),
      ] as const,
  );
  // An ASCII message holds no word of the lexicon written with a letter past ASCII (outside a class): the twins
  // leave those words out, and a concept with none left is not read at all.
  const asciiWord = (word: string) => isAscii(word.replace(/\[[^\]]*\]/g, ''));
  const ascii = LEXICON.flatMap(([concept, alphabetic, anywhere]) => {
    const words = alphabetic.filter(asciiWord);
    const parts = [
      ...(words.length > 0 ? [`(?<![\\p{L}\\p{N}])(?:${words.join('|')})`] : []),
      ...anywhere.filter(asciiWord),
    ];
    if (parts.length === 0) return [];
    return [[concept, asciiTwin(new RegExp(parts.join('|'), 'u'))] as const];
  });
  patterns = { all, ascii };
  return patterns;
}
/** The concepts that deny or report a failure. */
export const NEGATIVE = new Set(['error', 'wrong', 'still', 'not-working', 'dont', 'no']);

/** The message opens on a plain "no" (twelve languages). */
const OPENING_NO = /* @__PURE__ */ twinned(
  () => /^\W{0,3}(?:no|nope|nah|不是|不|いいえ|いや|non|nein|não|nao|нет|nie|hayır|아니)(?![\p{L}])/u,
);

/**
 * The lexicon's concepts the message holds; the message is lowercased (`flat`), so the patterns need not ignore case.
 * `ascii`: whether the message is all ASCII, when the caller knows.
 */
export function lexicon(message: string, ascii = isAscii(message)): string[] {
  const found: string[] = [];
  for (const [concept, pattern] of ascii ? lexiconPatterns().ascii : lexiconPatterns().all) {
    if (pattern.test(message)) found.push(concept);
  }
  if (testTwinned(OPENING_NO, message, ascii)) found.push('no');
  return found;
}

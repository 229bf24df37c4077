/** The agent states it was wrong or surprised: rule sets read by `detectSurprise`. */
import { type RuleSet, ruleSet } from './rule-set.ts';

/**
 * The agent states it was wrong or surprised: it concedes an error, an observation contradicts what it
 * expected, or it revises its own diagnosis. "I see the issue", "Actually, let me try …" and "You're absolutely
 * right!" accepting a request are not enough: a concession must follow "you're right" (see `NOT_SURPRISE`).
 */
export const STATED_SURPRISE: RuleSet = /* @__PURE__ */ ruleSet('STATED_SURPRISE', () => [
  {
    lang: 'en',
    examples: ['dev-sur-0009', 'dev-sur-0049', 'dev-sur-0067', 'dev-sur-0099', 'dev-sur-0004'],
    patterns: [
      /i (?:was|am) (?:wrong|mistaken)|i made (?:a|an) (?:\w+ )?(?:mistake|error)|my (?:mistake|bad|apologies|error)/,
      /(?:apologi[sz]e|sorry) for (?:the|my|any) (?:\w+ )?(?:confusion|mistake|error|oversight|misunderstanding)/,
      /i (?:misread|misunderstood|overlooked|introduced (?:a|an|the|some))|(?:catching|caught|spotting) (?:my |that |the )?(?:mistake|error)|good catch/,
      /my previous (?:\w+ ){0,2}(?:did ?n't|did not|was ?n't|was not|was wrong|introduced|broke|caused|missed)|previous incorrect/,
      /the previous (?:fix|edit|change|attempt|approach|command|search|block)s? (?:did ?n't|did not|was ?n't|was not|introduced|broke|caused|missed|failed)/,
    ],
  },
  {
    lang: 'en',
    examples: ['dev-sur-0008', 'dev-sur-0035', 'dev-sur-0038', 'dev-sur-0057', 'dev-sur-0080'],
    patterns: [
      /you(?:'re| are) (?:absolutely |quite |completely )?(?:right|correct)\b.{0,150}?(?:apologi[sz]e|apologies|sorry|mistakes?|incorrect|wrong|previous(?:ly)?|failed|is ?n't|was ?n't|are ?n't|correct \w+|again)/,
      /you(?:'re| are) (?:right|correct) (?:-|—|–|to (?:flag|point out|catch|question))/,
    ],
  },
  {
    lang: 'en',
    examples: ['dev-sur-0012', 'dev-sur-0018', 'dev-sur-0054', 'dev-sur-0070', 'dev-sur-0077'],
    patterns: [
      /did ?n't (?:work|go|behave|turn out) as (?:i |we )?expected|(?:than|what) (?:i|we) (?:expected|assumed|thought)/,
      /(?:this|that|it)(?:'s| is| was) (?:very |quite |really |rather |a bit |pretty )?(?:strange|odd|weird|unexpected|surprising|puzzling|baffling)/,
      /(?<!if (?:it )?)turn(?:s|ed) out|surprised|to my surprise|mystery|that explains|on (?:closer|second) (?:look|inspection|thought)/,
      // The real cause found, not one still to look for ("to see what the actual issue is", "fix the actual issue").
      /(?<!what )the (?:real|actual|true) (?:problem|issue|cause|culprit|reason) (?:is|was)\b|(?:that(?:'s| is| was)|here(?:'s| is)|found) the (?:real|actual|true) (?:problem|issue|cause|culprit|reason)|the (?:real|actual|true) (?:problem|issue|cause|culprit|reason)[!:]/,
      /wait,? (?:that's|that is|this is|it's) not (?:right|correct)/,
      /oops|whoops|i (?:had )?(?:assumed|thought|expected) [^.!?\n]{1,80}(?:but|however)|i (?:now )?reali[sz]ed?|(?:treat|take) (?:that|this) as a correction|my (?:\w+ ){0,2}needs? (?:adjustment|adjusting|fixing|correcting)|(?:^|[.!?] )(?:(?:ah|aha|oh|huh)(?:,? (?:right|i see|wait)|!)|interesting(?:!| -| —|,|\.))/m,
    ],
  },
  // Said in general words, with no row cited: a state called strange whatever its subject, a paragraph that opens
  // on a pause before a contradiction, an admission of mixing things up, a command run in the wrong place, a fix
  // that left errors behind (found in its own work: not "if there are still issues", nor the person's report that
  // it is still broken). Written after the second batch's misses, so its figures count as seen by the rules.
  {
    lang: 'en',
    examples: [],
    patterns: [
      /\b(?:is|was|seems|looks|sounds)(?: (?:very|quite|really|rather|a bit|pretty|a little|especially|definitely|genuinely))? (?:strange|odd|weird|unexpected|surprising|puzzling|baffling|curious)\b/,
      /^(?:hmm+|huh)\b|^(?:wait|hold on)\b[,.!:;—–\- ]+(?:there(?:'s| is| are) no|that(?:'s| is) not|this (?:is|was) not|it(?:'s| is) not|i see|no[,.!]|actually)/m,
      /\bi (?:mixed up|confused|conflated|mistakenly|wrongly|incorrectly|forgot)\b|(?:dropped|fumbled) the ball/,
      /\b(?:is|are|was|were) actually (?:already|not|never|still|fine|correct|working|there)\b/,
      /\b(?:in|from|with|on|to) the wrong (?:directory|folder|file|path|branch|place|version|order|project|repo|repository)\b/,
      /(?<!\bif )there(?: are|'s| is) still (?:some |a few |several )?(?:[\w-]+ ){0,2}?(?:errors?|issues?|problems?)\b/,
    ],
  },
  {
    lang: 'zh',
    examples: ['dev-sur-0034', 'dev-sur-0045', 'dev-sur-0055'],
    patterns: [
      /奇怪|意外地发现|没想到|出乎意料|原来如此|原来是.{0,20}(?:问题|原因|导致)|(?:与|和|跟).{0,30}(?:不符|不一致)|我(?:之前|刚才)?(?:搞错|弄错|理解错|写错|看错)/,
      /抱歉.{0,6}我(?:发现|之前|刚才|搞错|弄错|忽略|漏)|实际上.{0,4}更可能|我的错/,
      /非常抱歉|抱歉.{0,10}(?:误解|理解错|疏忽|遗漏)|误解了/,
    ],
  },
  {
    lang: 'ru',
    examples: ['dev-sur-0095'],
    patterns: [
      /(?:чем|как) (?:мы |я )?(?:ожида|предполага|думал)\p{L}*|я ошиб\p{L}*|моя ошибка|странно|оказалось|вы правы/u,
    ],
  },
  {
    lang: 'fr',
    examples: ['dev-sur-0039'],
    patterns: [
      /je me suis tromp\p{L}*|j'ai confondu|vous avez raison|tu as raison|mon erreur|étrange|inattendu\p{L}*|il s'avère|il s'est avéré/u,
    ],
  },
  {
    lang: 'es',
    examples: [],
    patterns: [
      /me equivoqué|me confundí|tienes razón|tiene razón|mi error|qué raro|inesperad\p{L}*|resulta que|curiosamente/u,
    ],
  },
  {
    lang: 'it',
    examples: [],
    patterns: [
      /mi sono (?:sbagliat|confus)\p{L}*|hai ragione|ha ragione|strano|inaspettat\p{L}*|a quanto pare|si è scoperto/u,
    ],
  },
  { lang: 'pl', examples: [], patterns: [/pomyli\p{L}*|masz rację|dziwne|nieoczekiwan\p{L}*/u] },
  {
    lang: 'ja',
    examples: [],
    patterns: [
      /間違えました|間違っていました|おっしゃる通り|予想外|勘違い|意外(?:な|に)|おかしいですね|不思議/,
    ],
  },
  {
    lang: 'pt',
    examples: [],
    patterns: [/me enganei|me confundi|você tem razão|estranho|inesperad\p{L}*|acontece que|curiosamente/u],
  },
  {
    lang: 'de',
    examples: [],
    patterns: [
      /ich habe mich geirrt|ich habe (?:\p{L}+ ){0,2}verwechselt|du hast recht|sie haben recht|seltsam|merkwürdig|unerwartet|stellt sich heraus|stellte sich heraus/u,
    ],
  },
  {
    // Korean, Indonesian and Vietnamese, written from the languages: no labelled paragraph is in them.
    lang: 'ko',
    examples: [],
    patterns: [/제가 (?:\p{L}+ )?(?:잘못|착각)|착각했|예상(?:과|와) 달리|이상하네요|알고 보니/u],
  },
  {
    lang: 'id',
    examples: [],
    patterns: [/saya (?:salah|keliru)(?!\p{L})|ternyata|aneh(?:nya)?(?!\p{L})|di luar dugaan/u],
  },
  {
    lang: 'vi',
    examples: [],
    patterns: [/tôi đã (?:sai|nhầm)|hóa ra|lạ thật|thật lạ|không như mong đợi/u],
  },
  {
    lang: 'tr',
    examples: [],
    patterns: [/özür dilerim|gözden kaçır\p{L}*|yanıldım|hata yaptım|aslında.{0,60}zaten/u],
  },
]);

/** Cue words in another sense: a hypothetical, a quoted error, a self-check that confirms the first view. */
export const NOT_SURPRISE: RuleSet = /* @__PURE__ */ ruleSet('NOT_SURPRISE', () => [
  {
    lang: 'en',
    examples: ['dev-sur-0027', 'dev-sur-0076'],
    patterns: [
      /if (?:this|it|that) (?:does ?n't|did ?n't) work as expected|self-correction|surprisingly (?:easy|simple|quick|small)/,
    ],
  },
]);

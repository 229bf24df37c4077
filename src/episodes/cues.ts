/**
 * The cues: named rule sets that read surprises out of agent transcripts (paper §4.1, §4.3.1, Appendix A).
 *
 * Each set is data a person can read and extend: patterns grouped by language, and for each group the ids of
 * labelled rows in the development data (`shared/data/*.jsonl`) that justify it. Patterns are matched against
 * text after `normalizeText` (lower case, straight apostrophes, phone typing spelled out: "dont" → "don't"),
 * so write them in lower case with straight apostrophes. In languages written with spaces a pattern must match
 * whole words; in Chinese, Japanese, Korean and Thai it matches anywhere. Keep every quantifier bounded (`.{0,40}`):
 * the detectors run in a hook with a 1.5 s budget and over every transcript.
 */

/** One language's patterns within a rule set. */
export interface CueGroup {
  /** ISO 639-1 code, or `any` for shapes that are not words (log lines, markers). */
  lang: string;
  /** Labelled rows (development data ids) this group was written from. */
  examples: readonly string[];
  patterns: readonly RegExp[];
}

export interface RuleSet {
  name: string;
  groups: readonly CueGroup[];
}

/** Languages written without spaces between words: their patterns are not held to word boundaries. */
export const UNSPACED_LANGS: readonly string[] = ['zh', 'ja', 'ko', 'th', 'any'];

/**
 * Phone typing, missing apostrophes and common misspellings, spelled out before any cue is matched (curly
 * apostrophes and "dont" hid half the correction cues in the paper's first week, §7.1 finding 7).
 * Each entry is `typed:meant`.
 */
export const PHONE_TYPING: Readonly<Record<string, string>> = Object.fromEntries(
  `
  dont:don't doesnt:doesn't didnt:didn't isnt:isn't arent:aren't wasnt:wasn't werent:weren't
  havent:haven't hasnt:hasn't hadnt:hadn't wont:won't wouldnt:wouldn't shouldnt:shouldn't
  couldnt:couldn't cant:can't aint:ain't thats:that's whats:what's theres:there's youre:you're
  youve:you've youll:you'll ive:i've im:i'm u:you ur:your pls:please plz:please thx:thanks
  alredy:already aleady:already allready:already alrady:already alreay:already teh:the htey:they
`
    .trim()
    .split(/\s+/)
    .map((entry) => entry.split(':')),
);

/**
 * The person opens by rejecting what the agent did or said: "no, …", "stop", "wrong", "instead …".
 * A bare "no" answering the agent's offer or question is an answer, not a correction (see `DECLINE`).
 */
export const CORRECTION_OPENING: RuleSet = {
  name: 'CORRECTION_OPENING',
  groups: [
    {
      lang: 'en',
      examples: ['dev-msg-0064', 'dev-msg-0101', 'dev-msg-0245', 'dev-msg-0270'],
      patterns: [
        // "no" opens a rejection in English, Spanish, Italian and Portuguese alike, but not "no thanks", "no sé".
        /^(?:no|nope|nah|nein|não)(?![ ,.!]{0,3}(?:thanks|thank you|sorry|problem|worries|rush|idea|preference|sé|se|tengo|hay|merci|grazie|gracias))/,
        /^(?:stop|wait|hold on|undo|revert|wrong|incorrect|not quite|not like (?:that|this)|actually,? no)(?=[ ,.!?-]|$)/,
        /^(?:that|this|it)(?:'s| is| was)(?:n't| not) (?:it|right|correct|what)/,
        /^(?:(?:um+|uh+|hmm+|well)\W{0,5})?instead/,
      ],
    },
    {
      lang: 'fr',
      examples: ['dev-msg-0236', 'dev-msg-0276'],
      patterns: [/^(?:non|attends|arrête|stop)(?! merci)/],
    },
    { lang: 'es', examples: [], patterns: [/^(?:espera|alto)(?=[ ,.!])/] },
    { lang: 'it', examples: [], patterns: [/^(?:aspetta|fermati|ferma)(?=[ ,.!])/] },
    { lang: 'de', examples: [], patterns: [/^(?:halt|stopp|warte|falsch)(?=[ ,.!])/] },
    { lang: 'ru', examples: [], patterns: [/^(?:нет|стоп|стой|погоди|подожди)(?! спасибо)/] },
    { lang: 'pl', examples: [], patterns: [/^(?:nie|stop|czekaj|zaczekaj)(?=[ ,.!])(?! (?:wiem|dziękuję))/] },
    {
      lang: 'zh',
      examples: [],
      patterns: [/^(?:不对|错了|等等|等一下|停一下|停下|不是(?:这样|这个|我要|我想))/],
    },
    { lang: 'ja', examples: [], patterns: [/^(?:違う|ちがう|いや、|待って|ストップ|やめて)/] },
    { lang: 'ko', examples: [], patterns: [/^(?:아니|잠깐|멈춰|그만)/] },
    { lang: 'th', examples: [], patterns: [/^(?:ไม่ใช่|หยุด|ผิด)/] },
  ],
};

/**
 * Anywhere in the message the person says the agent got it wrong, ignored them, should undo, or should act
 * instead of asking: "that's not what I asked", "I said", "why did you", "revert", "you do it", "don't ask".
 */
export const CORRECTION_ANYWHERE: RuleSet = {
  name: 'CORRECTION_ANYWHERE',
  groups: [
    {
      lang: 'en',
      examples: ['dev-msg-0030', 'dev-msg-0034', 'dev-msg-0092', 'dev-msg-0158', 'dev-msg-0185'],
      patterns: [
        /(?:that|this|it)(?:'s| is| was) (?:not (?:what|how|right|correct|it)|wrong|incorrect)|not like (?:that|this)/,
        /not what i (?:asked|wanted|meant|said|need|expected)|(?:the )?wrong (?:file|one|place|folder|branch|path|page|component|function|version|repo|directory|model|table|port|endpoint|url|approach)/,
        /you (?:didn't|did not|haven't|have not|never|forgot|missed|ignored|skipped|broke|deleted|removed|overwrote|misunderstood|misread|keep)(?= )/,
        /you (?:only|just) (?:did|changed|fixed|converted|updated) (?:one|the first|part)|hallucinat\w*|made (?:that|it|this) up/,
        /i (?:said|told you|asked you|meant|remind you|didn't ask|did not ask|never asked|never said|specifically (?:said|asked))/,
        /(?:as|like) i (?:said|mentioned|asked|told you)|i already (?:said|told|asked|tried|mentioned|gave)/,
        /why (?:did you|would you|are you|have you|do you keep)|(?:who|what) (?:told|asked) you to/,
        /did you (?:even|actually|really) \w+|did you (?:do|read) what i/,
        /revert|undo (?:it|that|this|the|your|what|all|everything)|roll ?back|put (?:it|that|them) back/,
        /(?:change|set|switch|turn) (?:it|that|this|them|everything) back|restore (?:the |my )?(?:previous|original|old)/,
        /go back to (?:the )?(?:previous|original|old|what|how|before)|(?:re-?read|read again|read carefully) (?:my|the|what)/,
        /(?:don't|do not|stop) (?:ask(?:ing)?|wait(?:ing)? for me|tell(?:ing)? me to)|just keep going|(?:don't|do not) do (?:that|this|it)/,
        /stop (?:doing|changing|adding|removing|using|making|creating|writing|guessing|touching|editing|deleting)/,
        /(?<!(?:can|could|would|will|did|do|if|when|should|so|to|that|have|let) )you (?:do|fix|run|check|open|test|try) (?:it|this|that|them)/,
        /(?:do|fix|run|check|open|test) (?:it|this|that|them) yourself|how about you|why (?:don't|can't) you/,
        /(?:i give you|you have) (?:my |full )?(?:permission|access)/,
        /next time,? (?:show|do|please|make|try|be|don't|remember|read|check|ask|use)|show (?:some |more )?effort/,
        /misunderstanding|(?:same )?mistakes? again|(?:think|look) (?:harder|again|carefully)|use your (?:brain|head)|pay attention/,
      ],
    },
    {
      lang: 'fr',
      examples: ['dev-msg-0108', 'dev-msg-0236', 'dev-msg-0266', 'dev-msg-0276'],
      patterns: [
        /(?:c'est|ce n'est) pas (?:ce qu(?:e|'il)|ça|bon|correct|juste)|pas ce que (?:j'ai|je)|c'est faux/,
        /tu (?:n'as pas|as oublié|as cassé|as supprimé|dis des|te trompes|t'es trompé)|n'importe quoi/,
        /je (?:t'ai|vous ai) (?:dit|demandé)|pourquoi (?:tu as|as-tu|avez-vous)|annule(?:r|z)?|remets/,
        /erreur (?:\p{L}+ ){0,3}dans (?:tes|ton|ta|vos|votre)|je te laisse faire|fais-le toi|à toi de (?:faire|jouer)/u,
      ],
    },
    {
      lang: 'es',
      examples: ['dev-msg-0061', 'dev-msg-0207'],
      patterns: [
        /lo que te (?:pedí|pedi|dije)|te (?:dije|pedí|pedi)|no (?:es|era) (?:lo que|eso)|(?:está|esta|están|estan) mal|incorrect[oa]/,
        /por qué (?:hiciste|cambiaste|borraste|has)|deshaz|revierte|hazlo (?:tú|tu)|(?:darte|te doy) (?:el )?permiso|te equivocaste/,
      ],
    },
    {
      lang: 'pt',
      examples: [],
      patterns: [/(?:está|esta) errado|eu (?:disse|pedi)|por que você|desfaz|não (?:é|era) (?:isso|o que)/],
    },
    {
      lang: 'it',
      examples: [],
      patterns: [
        /(?:è|e') sbagliato|hai sbagliato|ti ho (?:detto|chiesto)|non (?:è|era) quello che|perch[éeè] hai|annulla|ripristina|torna indietro|fallo tu/,
      ],
    },
    {
      lang: 'de',
      examples: [],
      patterns: [
        /das ist (?:falsch|nicht (?:richtig|was))|ich habe (?:gesagt|gebeten)|warum hast du|rückgängig|mach (?:das|es) selbst/,
      ],
    },
    {
      lang: 'pl',
      examples: ['dev-msg-0041'],
      patterns: [/źle|mówiłem|mówiłam|prosiłem|prosiłam|cofnij|przywróć|zrób to sam|nie o to|pomyśl/],
    },
    {
      lang: 'ru',
      examples: [],
      patterns: [
        /неправильно|неверно|ты (?:не (?:понял|сделал|исправил)|забыл|сломал|удалил|опять)|я (?:же )?(?:сказал|просил|говорил)/,
        /зачем ты|верни|откати|отмени|не надо|хватит|сделай сам|ошиб\p{L}*|не то,? что/u,
      ],
    },
    {
      lang: 'zh',
      examples: ['dev-msg-0051', 'dev-msg-0053', 'dev-msg-0102', 'dev-msg-0121', 'dev-msg-0141'],
      patterns: [
        /不对|错了|搞错|弄错|理解错|误解|不是我(?:要的|想要的|说的)|你(?:没有|并没有|根本没|又)(?:改|做|修|按|听|理解|实现)/,
        /我(?:说的是|说过|已经说|刚才说|明明|不是让你)|你为什么|为什么你|不要问我|别问我|你自己(?:来|做|运行|执行|改)/,
        /撤销|回滚|回退|还原|恢复(?:原来|之前|到)|改回/,
        /(?:先)?别(?:急着|乱|再)|先别|先不要|不要再|不要乱|停下|停一下/,
        /(?:思考|想)一下再|仔细(?:检查|看|想|思考|分析)|认真(?:检查|看|想)/,
        /合理吗|是否合理/,
      ],
    },
    {
      lang: 'ja',
      examples: [],
      patterns: [
        /違う|違います|ちがう|間違って|そうじゃな|言った(?:よ|でしょ|のに)|って言った|元に戻|戻して|やめて|勝手に/,
      ],
    },
    { lang: 'ko', examples: [], patterns: [/틀렸|잘못(?:됐|되었|했)|되돌려|원래대로|내가 말했|하지 말라고/] },
    { lang: 'th', examples: ['dev-msg-0256'], patterns: [/หยุด|ผิด|ไม่ใช่|บอกแล้ว|ย้อนกลับ/] },
  ],
};

/**
 * The person turns the agent away from what it just did: another way instead, it already exists, there is no
 * need for it, they changed their mind (labelling rule 3). Read only right after an agent turn: at the start of
 * a session the same words describe a new request.
 */
export const REDIRECT: RuleSet = {
  name: 'REDIRECT',
  groups: [
    {
      lang: 'en',
      examples: ['dev-msg-0022', 'dev-msg-0084', 'dev-msg-0086', 'dev-msg-0129', 'dev-msg-0211'],
      patterns: [
        /(?:there (?:is|are)|we (?:already )?have|it's|that's) already|already (?:exists?|there|in place)/,
        /no need (?:to (?:do|try|run|ask|check|create|add|make|use|install) (?:that|this|it|those|these)|for (?:that|this|it))/,
        /(?:we|you|i) (?:don't|do not) need (?:that|this|it|those|these)|do (?:we|you) (?:really|even|actually) need/,
        /instead(?! of)|changed my mind|requirements? (?:[\w"'-]+ ){0,6}(?:has|have) changed/,
      ],
    },
    { lang: 'fr', examples: [], patterns: [/plutôt que ça|existe déjà|pas besoin de (?:ça|faire ça)/] },
    { lang: 'es', examples: [], patterns: [/en lugar de eso|ya existe|no hace falta (?:eso|hacer eso)/] },
    {
      lang: 'zh',
      examples: ['dev-msg-0035', 'dev-msg-0190'],
      patterns: [/已经(?:提示|存在|有了|装了|安装了|写了|在)|我已经在|不需要这个|换成/],
    },
    {
      lang: 'ja',
      examples: ['dev-msg-0132'],
      patterns: [/(?:既に|すでに|もう|ちゃんと|しっかり)(?:存在|あり|ある|作成|インストール)/],
    },
  ],
};

/**
 * The agent's just-made change does not work: "it doesn't show up", "still broken", "not working again".
 * Read only right after an agent turn: with nothing before it, the same words report a new problem.
 */
export const STILL_BROKEN: RuleSet = {
  name: 'STILL_BROKEN',
  groups: [
    {
      lang: 'en',
      examples: ['dev-msg-0064', 'dev-msg-0090', 'dev-msg-0156', 'dev-msg-0158', 'dev-msg-0205'],
      patterns: [
        /(?:doesn't|does not|didn't|did not|isn't|is not|aren't|are not|won't|will not|can't|cannot|still not|no longer) (?:seem to |even )?(?:work|show|display|appear|render|load|run|start|compile|build|change|fix|help|hold|save|respond|open|update|do anything)/,
        /not (?:working|showing|displaying|appearing|rendering|loading|responding|updating|fixed|changed)|not (?:work|show|display|appear|render|load)in\w?/,
        /still (?:not|no|nothing|broken|wrong|fails|failing|failed|crash\w*|the same|same|there|blank|empty|missing|showing|getting|get|seeing|see|happening|appears|doesn't|didn't|isn't|won't|can't|an? (?:issue|problem|error)|errors?|404|500)/,
        /(?:it|that|this|they|these|those|everything|all)(?:'s|'re| is| are| was| were) (?:still |all |completely |totally )?(?:wrong|broken|messed up)/,
        /(?:error|problem|issue|bug) (?:\w+ ){0,2}(?:persists|remains|is back|came back)|(?:the )?same (?:error|problem|issue|bug|result)/,
        /(?:broken|wrong|failing|missing|blank|empty|messed up|gone) again|(?:doesn't|didn't|not) \w+ (?:\w+ )?again/,
        /in the wrong (?:place|file|spot|folder|position|order|directory)|(?:it|this|that|everything) (?:broke|crashed|crashes)/,
        /(?:is|are) (?:now|currently) (?:broken|completely|unresponsive|missing|gone|blank|failing)/,
        /(?:previous|last|your) (?:fix|fixes|change|changes|attempts?|edits?|patch|patches) (?:did|have|has|do|does)(?:n't| not)/,
        /(?:have|has) not worked|nothing (?:changed|happens|happened|shows)/,
      ],
    },
    {
      lang: 'fr',
      examples: ['dev-msg-0044', 'dev-msg-0060', 'dev-msg-0089'],
      patterns: [
        /(?:marche|fonctionne) (?:pas|plus)|toujours (?:pas|le même|la même|rien|vide)|rien ne (?:s'affiche|marche)|rien n'a changé/,
      ],
    },
    {
      lang: 'es',
      examples: [],
      patterns: [
        /no funciona|sigue (?:sin|igual|mal|fallando|dando|apareciendo)|todavía no funciona|no (?:anda|sirve)|no cambió nada/,
      ],
    },
    { lang: 'pt', examples: [], patterns: [/não funciona|ainda não|continua (?:sem|igual|dando)/] },
    {
      lang: 'it',
      examples: [],
      patterns: [
        /non funziona|ancora (?:non|lo stesso|errore)|continua a (?:non|dare)|di nuovo (?:lo stesso )?errore/,
      ],
    },
    {
      lang: 'de',
      examples: [],
      patterns: [
        /funktioniert (?:immer noch )?nicht|immer noch (?:nicht|kaputt|falsch|der gleiche|derselbe)|geht (?:immer noch )?nicht/,
      ],
    },
    {
      lang: 'pl',
      examples: ['dev-msg-0041', 'dev-msg-0169'],
      patterns: [/nie działa|(?:dalej|nadal|wciąż|ciągle) (?:nic|nie|to samo|jest|się nie|błąd)|też nie/],
    },
    {
      lang: 'ru',
      examples: [],
      patterns: [
        /(?<!пока )не работа\p{L}*|всё ещё|все еще|по-прежнему|опять (?:не|та же|эта)|снова не|та же ошибка|ничего не (?:изменилось|поменялось)/u,
      ],
    },
    {
      lang: 'zh',
      examples: ['dev-msg-0121', 'dev-msg-0137', 'dev-msg-0144', 'dev-msg-0225'],
      patterns: [
        /(?:还是|依然|仍然|依旧|照样) ?(?:没|不|一样|报错|有问题|出错|失败|404|500)|还是.{0,8}(?:不全|不行|不对|不显示|报错)/,
        /不起作用|不生效|没生效|没用|没(?:有)?(?:效果|反应|变化)|(?:又|再次)(?:报错|出错|失败|崩)/,
      ],
    },
    {
      lang: 'ja',
      examples: [],
      patterns: [
        /(?:まだ|やはり|やっぱり)(?:動か|表示され|直って|でき|エラー)|動かない|動きません|表示されない|直っていない|変わらない/,
      ],
    },
    {
      lang: 'ko',
      examples: [],
      patterns: [/안 ?돼|작동(?:하지|을 안|이 안)|(?:여전히|아직도) (?:안|에러|오류|같은)/],
    },
    { lang: 'th', examples: [], patterns: [/ไม่ทำงาน|ยังไม่|ยังคง/] },
  ],
};

/** Claude Code's own markers: the person interrupted the agent or refused a tool call (labelling rule 4). */
export const INTERRUPTION: RuleSet = {
  name: 'INTERRUPTION',
  groups: [
    {
      lang: 'any',
      examples: ['dev-msg-0192'],
      patterns: [
        /^\[request interrupted by user(?: for tool use)?\]/,
        /^the user doesn't want to proceed with this tool use/,
        /^user (?:rejected tool use|decision: \**rejected)/,
      ],
    },
  ],
};

/** Messages that look like corrections and are not: Cursor's quick-fix template names an error in the code. */
export const NOT_CORRECTION: RuleSet = {
  name: 'NOT_CORRECTION',
  groups: [
    {
      lang: 'en',
      examples: ['dev-msg-0032', 'dev-msg-0210', 'dev-msg-0231'],
      patterns: [/^for the code present, we get this error/],
    },
  ],
};

/**
 * A line of error output: how a pasted log opens. A message that is only such a log, sent right after the
 * agent claimed success (`CLAIMED_SUCCESS`), says the claimed fix does not work (labelling rule 2).
 */
export const ERROR_OUTPUT: RuleSet = {
  name: 'ERROR_OUTPUT',
  groups: [
    {
      lang: 'any',
      examples: ['dev-msg-0046', 'dev-msg-0208', 'dev-msg-0216', 'dev-msg-0228'],
      patterns: [
        /(?<![\p{L}])(?:[a-z]{0,30}(?:error|exception)|traceback|fatal|failed|failure|err_[a-z_]+)(?![\p{L}])/u,
        /^\s*at [\w.$<>]{1,80} ?\(|^\s*\d{1,2}:\d{2}:\d{2}|^\s*\d{4}-\d{2}-\d{2}[ t]\d/,
        /[\w-]{1,60}\.(?:tsx?|jsx?|py|kt|java|go|rs|rb|php|cs|swift)[:(]\d+|status (?:code )?[45]\d\d/,
      ],
    },
  ],
};

/** The agent said its change works or is done ("should now work", "✅", "готов", "完成"). */
export const CLAIMED_SUCCESS: RuleSet = {
  name: 'CLAIMED_SUCCESS',
  groups: [
    {
      lang: 'any',
      examples: ['dev-msg-0046', 'dev-msg-0216', 'dev-msg-0228'],
      patterns: [/✅|🚀|🎉|🎊/u],
    },
    {
      lang: 'en',
      examples: ['dev-msg-0072'],
      patterns: [
        /should (?:now )?(?:work|render|load|show|display|run|pass|build|be (?:fixed|resolved|working|gone|visible|fine))|(?:now|is) (?:fixed|resolved|working|ready)/,
        /(?:it|this|that|everything) (?:now )?works|all set|successfully|(?:is|are) (?:now )?complete/,
      ],
    },
    {
      lang: 'ru',
      examples: ['dev-msg-0216', 'dev-msg-0228'],
      patterns: [/теперь|готов\p{L}*|должн\p{L}* (?:работать|исчезнуть)|исправлен\p{L}*|успешно/u],
    },
    {
      lang: 'zh',
      examples: ['dev-msg-0046'],
      patterns: [
        /现在.{0,30}(?:了|完成|成功|正常)|应该(?:就)?(?:可以|能|会|没问题)|已(?:经)?(?:完成|修复|解决)/,
      ],
    },
    {
      lang: 'fr',
      examples: [],
      patterns: [
        /devrai(?:t|ent) (?:maintenant )?(?:fonctionner|marcher|être)|fonctionnel\p{L}*|corrig\p{L}*|résolu\p{L}*/u,
      ],
    },
    {
      lang: 'es',
      examples: [],
      patterns: [
        /(?:ahora|ya) (?:funciona|debería)|debería funcionar|list[oa]|corregid\p{L}*|resuelt\p{L}*/u,
      ],
    },
    {
      lang: 'it',
      examples: [],
      patterns: [/ora (?:funziona|dovrebbe)|dovrebbe funzionare|risolt\p{L}*|sistemat\p{L}*/u],
    },
    {
      lang: 'pl',
      examples: [],
      patterns: [/powinno (?:teraz )?(?:działać|być)|naprawion\p{L}*|teraz działa/u],
    },
    { lang: 'ja', examples: [], patterns: [/はずです|完了しました|解決しました|修正しました/] },
  ],
};

/**
 * The person asks again for the whole of what the agent did only in part ("in all … files"). Read only when
 * the agent's turn handed the rest back (labelling rule 5, an instruction the agent did not carry out).
 */
export const WHOLE_SCOPE: RuleSet = {
  name: 'WHOLE_SCOPE',
  groups: [
    {
      lang: 'en',
      examples: ['dev-msg-0056', 'dev-msg-0080', 'dev-msg-0271'],
      patterns: [
        /(?:in|to|for|on|check) all (?:of )?(?:the |my |your )?(?:[\w./-]+ ){0,3}(?:files|pages|components)|every (?:file|page|component)/,
      ],
    },
    { lang: 'zh', examples: [], patterns: [/所有(?:的)?(?:文件|页面|组件)/] },
  ],
};

/**
 * The whole message is an order to fix it, right after the agent stopped short (it listed fixes for the person,
 * or said it was done). After "Want me to fix it?" the same word approves the offer instead.
 */
export const BARE_FIX: RuleSet = {
  name: 'BARE_FIX',
  groups: [
    {
      lang: 'en',
      examples: ['dev-msg-0072', 'dev-msg-0183'],
      patterns: [/^(?:please )?fix(?: it| this| that)?(?: please)?[.!]*$/],
    },
    { lang: 'zh', examples: [], patterns: [/^(?:修复|修一下|改一下|修)(?:吧)?[.!。]*$/] },
  ],
};

/**
 * The reply's closing offers or asks permission to do work the agent could do itself, lists next steps of its
 * own work, or tells the person to run what it could run (`offer`; paper §4.3.1, §7.1 finding 2).
 */
export const HANDBACK: RuleSet = {
  name: 'HANDBACK',
  groups: [
    {
      lang: 'en',
      examples: ['dev-hb-0008', 'dev-hb-0064', 'dev-hb-0074', 'dev-hb-0094', 'dev-hb-0101'],
      patterns: [
        /(?:would|do) you (?:like|want) (?:me )?to|(?:do you )?want me to|shall i|should i [^.!?\n]{1,100}\?/,
        /i can [^.!?\n]{1,120}? if you (?:want|like|wish|'d like|would like|prefer)|if you(?:'d| would)? like,? i (?:can|could|will)/,
        /if you want,? i (?:can|could|will)|let me know if you(?:'d| would)? (?:want|like)|please confirm/,
        /would you like (?:instructions|a script|help|me)|^#{0,4} ?(?:suggested |recommended )?next steps?:?$|the (?:only|last|final|remaining|next) step (?:is|left|would be)/m,
        /run (?:the following|these|this) (?:commands?|script)|(?:restart|reload|rebuild) (?:your|the) (?:[\w.]+ ){0,2}(?:server|app|application)/,
        /(?:you(?:'ll| will)? need to|you should|make sure to|be sure to|don't forget to) (?:run|install|restart|execute|commit|push|pass|update|apply|copy|paste|save|replace|convert)/,
        /(?:paste|copy) (?:that|this|it) (?:into|in|to)|update your (?:[\w.]+ ){0,2}(?:files?|code|config\w*)|save it as|make it executable/,
      ],
    },
    {
      lang: 'zh',
      examples: ['dev-hb-0004', 'dev-hb-0015', 'dev-hb-0050', 'dev-hb-0077', 'dev-hb-0078'],
      patterns: [
        /需要我|要不要我|要我(?:帮|来|再)|我可以(?:帮你|为你|再|直接).{0,40}(?:吗|\?)|如果(?:你|您)(?:愿意|需要|想)[,，]?.{0,20}我(?:可以|就|会|下一步)/,
        /(?:你|您)需要(?:确保|运行|执行|安装|重启|手动)|请(?:运行|执行|重启|重新启动|手动)|接下来(?:执行|运行|提交)|建议(?:立刻|立即)?(?:提交|运行|执行)/,
        /确认后我|可以说一声|可以说一下/,
      ],
    },
    {
      lang: 'ja',
      examples: ['dev-hb-0005', 'dev-hb-0085', 'dev-hb-0089', 'dev-hb-0151'],
      patterns: [
        /しましょうか|しますか|(?:教えて|実行して|試して|確認して|起動して|設定して)(?:ください|みてください)/,
      ],
    },
    {
      lang: 'ru',
      examples: ['dev-hb-0049', 'dev-hb-0149', 'dev-hb-0161'],
      patterns: [/хотите|готовы ли вы|если да\W{0,3}напишите|могу (?:\p{L}+ ){0,4}если/u],
    },
    {
      lang: 'fr',
      examples: ['dev-hb-0026', 'dev-hb-0054'],
      patterns: [/souhaitez-vous|voulez-vous|je peux (?:\p{L}+ ){0,5}si vous|pouvez-vous/u],
    },
    {
      lang: 'es',
      examples: ['dev-hb-0030', 'dev-hb-0042'],
      patterns: [/(?:desea|quiere|quieres|querés) (?:que|\p{L}+[aei]r)|te gustaría/u],
    },
    {
      lang: 'it',
      examples: ['dev-hb-0072', 'dev-hb-0102'],
      patterns: [/se vuoi,? (?:posso|ti)|(?<!non )vuoi che/],
    },
    {
      lang: 'pl',
      examples: ['dev-hb-0041', 'dev-hb-0061', 'dev-hb-0136'],
      patterns: [/chcesz,? (?:żebym|abym|bym)|czy chcesz|daj znać,? czy chcesz/],
    },
  ],
};

/**
 * The closing waits on something only the person has or can do: a credential, a look at their own screen or
 * device, a dashboard step, a file added to the chat, a learner's own answer (`waiting`).
 */
export const WAITING: RuleSet = {
  name: 'WAITING',
  groups: [
    {
      lang: 'en',
      examples: ['dev-hb-0021', 'dev-hb-0027', 'dev-hb-0032', 'dev-hb-0055', 'dev-hb-0058'],
      patterns: [
        /(?:paste|enter|provide|share|send|give me) (?:your|the) (?:[\w-]+ ){0,2}(?:key|token|password|secret|credentials?)/,
        /add (?:[\w./-]+ ){0,6}(?:to|in) (?:the|this|our) (?:chat|conversation)|please (?:provide|share|send|paste|upload|attach)/,
        /once (?:you|i) (?:have|add|provide|share|send|confirm|run|restart)|(?:let me know|tell me) (?:once|when|whether)/,
        /let me know if:|let me know if (?:it|the|that|this) (?:works|worked|fixes|shows|looks|is resolved)/,
        /take a look|how does it look|(?:does|did) (?:it|that|this|the \w+|\w+) (?:\w+ )?(?:look|work|render|show|hold|appear)/,
        /can you (?:check|confirm|verify|test|try|look|see|open)|what (?:do you see|does it show)/,
        /(?:i need|i'll need|i still need) (?:you to|your)|let me know when you(?:'re| are) (?:ready|done)|waiting (?:for|on) (?:you|your)/,
      ],
    },
    {
      lang: 'zh',
      examples: ['dev-hb-0132', 'dev-hb-0139'],
      patterns: [
        /告诉我结果|(?:发给|贴给)我|等(?:你|您)|控制台.{0,10}(?:显示|看到)|(?:你|您)需要(?:点击|登录)|点击它|点击页面|您可以直接复制/,
      ],
    },
    {
      lang: 'ru',
      examples: ['dev-hb-0011', 'dev-hb-0014', 'dev-hb-0115'],
      patterns: [/жду|пришлите|укажите путь|как бы вы|вопрос:|соотнесите/],
    },
    {
      lang: 'fr',
      examples: ['dev-hb-0152', 'dev-hb-0165'],
      patterns: [
        /qu'est-ce qui s'affiche|pourriez-vous me (?:montrer|donner|envoyer|partager)|(?:partagez|envoyez|montrez)-moi/,
      ],
    },
    {
      lang: 'es',
      examples: ['dev-hb-0018'],
      patterns: [/av[ií]sa?me|avíseme|cuando tengas|(?:envíame|pásame|pasame)/],
    },
    { lang: 'pl', examples: ['dev-hb-0124'], patterns: [/napisz,? co (?:dokładnie )?widzisz|wklej/] },
  ],
};

/** The closing asks the person to choose or clarify what they want (`question`). */
export const CLARIFYING: RuleSet = {
  name: 'CLARIFYING',
  groups: [
    {
      lang: 'en',
      examples: ['dev-hb-0007', 'dev-hb-0092', 'dev-hb-0103', 'dev-hb-0108', 'dev-hb-0118'],
      patterns: [
        /which (?:one|option|approach|path|way|direction|version|do you|would you)|(?:would|do) you prefer/,
        /(?:should|shall) i [^.?!\n]{1,80} or [^.?!\n]{1,80}\?/,
        /what(?:'s| is) your preference|what would you like to (?:tackle|focus on|do) next|(?:clarify|specify) what/,
        /^[-*]? ?\**(?:option )?[a-c][).:]\**/m,
      ],
    },
    {
      lang: 'zh',
      examples: ['dev-hb-0001', 'dev-hb-0022', 'dev-hb-0071'],
      patterns: [/选哪|哪一项|哪种|怎么执行|如果你愿意补充/],
    },
    {
      lang: 'ru',
      examples: ['dev-hb-0081', 'dev-hb-0112'],
      patterns: [/или продолжить|всё ли вас устраивает/],
    },
    {
      lang: 'fr',
      examples: ['dev-hb-0170'],
      patterns: [/quelle (?:approche|option|solution)|préférez-vous/],
    },
  ],
};

/**
 * Closings that hand nothing back: generic pleasantries ("Would you like me to make any adjustments?",
 * "anything else?") and turns cut off while the agent is still acting ("Let me run …", "Cancelled").
 * When one of these is the last cue, the reply is not a hand-back.
 */
export const NOT_HANDBACK: RuleSet = {
  name: 'NOT_HANDBACK',
  groups: [
    {
      lang: 'en',
      examples: ['dev-hb-0009', 'dev-hb-0031', 'dev-hb-0038', 'dev-hb-0082', 'dev-hb-0084'],
      patterns: [
        /(?:(?:would|do) you (?:like|want) me to|or) (?:make any (?:\w+ )?(?:adjustments|changes|modifications)|explain (?:any|anything|more))/,
        /is there anything (?:else|specific)|anything else|(?:would you like|want) me to help with\?|ready to help/,
        /let me know if you (?:need|have) (?:anything|any|more|further|other)|feel free to/,
      ],
    },
    {
      lang: 'en',
      examples: ['dev-hb-0035', 'dev-hb-0046', 'dev-hb-0076', 'dev-hb-0104', 'dev-hb-0109'],
      patterns: [
        /(?:^|[.!?:] )(?:let me (?!know)\w+|let's (?:\w+ )?(?:create|build|run|check|try|fix|verify)|now (?:let me|i'll))/m,
        /i'm (?:now )?(?:replacing|adding|running|checking|fixing|updating|installing)/,
        /(?:^|[.!] )proceeding|proceeding (?:with|now)|starting with|here's the change|^cancell?ed$/m,
      ],
    },
    {
      lang: 'zh',
      examples: ['dev-hb-0002', 'dev-hb-0019', 'dev-hb-0053', 'dev-hb-0133'],
      patterns: [/现在开始|我先|进一步的调整或解释|如果(?:你|您)(?:还)?需要(?:添加)?其他.{0,30}请告诉我/],
    },
    { lang: 'fr', examples: ['dev-hb-0156'], patterns: [/^je vais/m] },
    { lang: 'pl', examples: ['dev-hb-0087'], patterns: [/coś jeszcze/] },
  ],
};

/**
 * The agent states it was wrong or surprised: it concedes an error, an observation contradicts what it
 * expected, or it revises its own diagnosis. "I see the issue", "Actually, let me try …" and "You're absolutely
 * right!" accepting a request are not enough: a concession must follow "you're right" (see `NOT_SURPRISE`).
 */
export const STATED_SURPRISE: RuleSet = {
  name: 'STATED_SURPRISE',
  groups: [
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
        /the (?:real|actual|true) (?:problem|issue|cause|culprit|reason)|wait,? (?:that's|that is|this is|it's) not (?:right|correct)/,
        /oops|whoops|i (?:had )?(?:assumed|thought|expected) [^.!?\n]{1,80}(?:but|however)|i (?:now )?reali[sz]ed?|(?:treat|take) (?:that|this) as a correction|my (?:\w+ ){0,2}needs? (?:adjustment|adjusting|fixing|correcting)|(?:^|[.!?] )(?:(?:ah|aha|oh|huh)(?:,? (?:right|i see|wait)|!)|interesting(?:!| -| —|,|\.))/m,
      ],
    },
    {
      lang: 'zh',
      examples: ['dev-sur-0034', 'dev-sur-0045', 'dev-sur-0055'],
      patterns: [
        /奇怪|意外地发现|没想到|出乎意料|原来如此|原来是.{0,20}(?:问题|原因|导致)|(?:与|和|跟).{0,30}(?:不符|不一致)|我(?:之前|刚才)?(?:搞错|弄错|理解错|写错|看错)/,
        /抱歉.{0,6}我(?:发现|之前|刚才|搞错|弄错|忽略|漏)|实际上.{0,4}更可能|我的错/,
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
      patterns: [/je me suis tromp\p{L}*|vous avez raison|tu as raison|mon erreur|étrange|inattendu\p{L}*/u],
    },
    {
      lang: 'es',
      examples: [],
      patterns: [/me equivoqué|tienes razón|tiene razón|mi error|qué raro|inesperad\p{L}*/u],
    },
    {
      lang: 'it',
      examples: [],
      patterns: [/mi sono sbagliat\p{L}*|hai ragione|ha ragione|strano|inaspettat\p{L}*/u],
    },
    { lang: 'pl', examples: [], patterns: [/pomyli\p{L}*|masz rację|dziwne|nieoczekiwan\p{L}*/u] },
    { lang: 'ja', examples: [], patterns: [/間違えました|間違っていました|おっしゃる通り|予想外/] },
  ],
};

/** Cue words in another sense: a hypothetical, a quoted error, a self-check that confirms the first view. */
export const NOT_SURPRISE: RuleSet = {
  name: 'NOT_SURPRISE',
  groups: [
    {
      lang: 'en',
      examples: ['dev-sur-0027', 'dev-sur-0076'],
      patterns: [
        /if (?:this|it|that) (?:does ?n't|did ?n't) work as expected|self-correction|surprisingly (?:easy|simple|quick|small)/,
      ],
    },
  ],
};

/**
 * A failed tool call that came from the machine, the outside world or the person, not from the agent's
 * choice: a missing tool, a sandbox or permission block, a password prompt, the network, the person
 * cancelling, a file changed on disk, a runtime too new, the IDE's shell wrapper breaking (paper §4.1).
 * Kept as an environment episode and never consolidated.
 */
export const ENVIRONMENT: RuleSet = {
  name: 'ENVIRONMENT',
  groups: [
    {
      lang: 'any',
      examples: ['dev-tf-0016', 'dev-tf-0030', 'dev-tf-0052', 'dev-tf-0056', 'dev-tf-0018'],
      patterns: [
        /^cancell?ed$|user (?:decision: \**rejected|rejected|denied)|doesn't want to proceed|interrupted by user/m,
        /modified since (?:it was )?read|changed on disk/,
        /enter (?:your )?(?:\w+ )?password|^(?:\[sudo\] )?password(?: for [\w.-]+)?: *$|a password is required|passphrase for/m,
        /operation not permitted|eacces|access is denied|read-only file system|sandbox|blocked by (?:\w+ ){0,2}(?:policy|sandbox|hook|globalignore)/,
        /permission to use [\w-]+ (?:has been|was) denied|requires approval/,
        // Not the shell's own "permission denied: X" for running X as a command: that is a quoting mistake.
        /(?<!^(?:\(eval\)|zsh|bash|sh)(?::\d+)?: )permission denied/m,
      ],
    },
    {
      lang: 'any',
      examples: ['dev-tf-0036', 'dev-tf-0044'],
      patterns: [
        /getaddrinfo|enotfound|econnrefused|econnreset|etimedout|eai_again|could not resolve host|name or service not known/,
        /nodename nor servname|name resolution|connection (?:refused|timed out|reset)|network is unreachable|no route to host/,
        /certificate verify failed|failed to connect to|unable to connect|urlopen error|, in do_open/,
      ],
    },
    {
      lang: 'any',
      examples: ['dev-tf-0020', 'dev-tf-0066', 'dev-tf-0046'],
      patterns: [
        /unsupported class file major version|could not find a package configuration file|daemon running|docker daemon/,
        // PowerShell turned a passing command's stderr into an error record.
        /^[\w.-]+ : [^\n]{0,300}(?:\.\.\. ok|passed|succeeded)\n[\s\S]{0,1500}nativecommanderror/m,
      ],
    },
  ],
};

/** A missing program (`command not found`): the machine lacks a tool, unless the name is a path in the project. */
export const MISSING_TOOL: RuleSet = {
  name: 'MISSING_TOOL',
  groups: [
    {
      lang: 'any',
      examples: ['dev-tf-0021', 'dev-tf-0023', 'dev-tf-0025', 'dev-tf-0029'],
      patterns: [
        /command not found: ?([^\s:'"]+)/,
        /([^\s:'"]+): (?:command )?not found/,
        /(?:the term )?'([^']+)' is not recognized as/,
        /\(([^\s:()]+):string\) \[\], commandnotfoundexception/,
        /exec(?:utable file)?: "?([^\s"]+)"?: (?:executable file )?not found in \$path/,
      ],
    },
  ],
};

/** Names that are the project's own (a path, a build wrapper, a script): missing means the agent ran it wrongly. */
export const PROJECT_LOCAL: RuleSet = {
  name: 'PROJECT_LOCAL',
  groups: [
    {
      lang: 'any',
      examples: ['dev-tf-0015', 'dev-tf-0038'],
      patterns: [/[\\/]|^(?:gradlew|mvnw)$|\.(?:sh|py|js|mjs|ts|bat|cmd|ps1)$/],
    },
  ],
};

/** Framing the harness puts around a command's output (Codex, Claude Code): neither error nor answer. */
export const HARNESS_FRAMING: RuleSet = {
  name: 'HARNESS_FRAMING',
  groups: [
    {
      lang: 'any',
      examples: ['dev-tf-0011', 'dev-tf-0059', 'dev-tf-0063'],
      patterns: [
        /^(?:process exited with code \d+|exit code \d+|original token count: \d+|output:|wall time: .{0,40})$/m,
        // The shell prompt older exports print after the output.
        /^\(base\) .{0,80}[%$#] *$|^ps [a-z]:\\.{0,200}> *$|^[\w.-]+@[\w.-]+ .{0,120}[%$#] *$/m,
      ],
    },
  ],
};

/** Lines the IDE's shell wrapper adds to a command's output; alone, they say the wrapper broke, not the command. */
export const SHELL_WRAPPER: RuleSet = {
  name: 'SHELL_WRAPPER',
  groups: [
    {
      lang: 'any',
      examples: ['dev-tf-0003', 'dev-tf-0040', 'dev-tf-0051'],
      patterns: [/dump_zsh_state|cursor_snap_env_vars/],
    },
  ],
};

/** PowerShell cmdlets and the names a command may call them by (a cmdlet error the command did not call is the wrapper's). */
export const POWERSHELL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'get-childitem': ['get-childitem', 'ls', 'dir', 'gci'],
  'new-item': ['new-item', 'mkdir', 'md', 'ni'],
  'remove-item': ['remove-item', 'rm', 'del', 'rmdir', 'rd', 'ri'],
  'get-content': ['get-content', 'cat', 'type', 'gc'],
  'set-location': ['set-location', 'cd', 'sl', 'chdir'],
  'copy-item': ['copy-item', 'cp', 'copy', 'cpi'],
  'move-item': ['move-item', 'mv', 'move', 'mi'],
};

/**
 * Probes: calls whose failing answer was the information sought. The command is a question (is this a git
 * repository? does the pattern occur? do these credentials work?) and the failure is its answer.
 */
export const PROBE: RuleSet = {
  name: 'PROBE',
  groups: [
    {
      lang: 'any',
      examples: ['dev-tf-0011', 'dev-tf-0012', 'dev-tf-0058'],
      patterns: [/git (?:-c "[^"]{1,200}" |-c \S{1,200} )?(?:status|rev-parse|remote|branch|log)\b/],
    },
    {
      lang: 'any',
      examples: ['dev-tf-0063'],
      patterns: [
        /^(?:cd [^;&|]{1,300}(?:&&|;) ?)?(?:rg|grep|egrep|fgrep|ag|test|\[|which|command -v|pgrep|lsof) /,
      ],
    },
    {
      lang: 'any',
      examples: ['dev-tf-0004', 'dev-tf-0070'],
      patterns: [
        /^(?:cd [^;&|]{1,300}(?:&&|;) ?)?(?:curl|wget|http|httpie|invoke-webrequest|invoke-restmethod) /,
      ],
    },
  ],
};

/** What each kind of probe answers with when the answer is "no". */
export const PROBE_ANSWER: RuleSet = {
  name: 'PROBE_ANSWER',
  groups: [
    { lang: 'any', examples: ['dev-tf-0012', 'dev-tf-0058'], patterns: [/not a git repository/] },
    {
      lang: 'any',
      examples: ['dev-tf-0004', 'dev-tf-0070'],
      patterns: [/"status": ?40[13]|http\/[\d.]+ 40[13]|40[13] (?:unauthorized|forbidden)|unauthorized/],
    },
  ],
};

/** The person's answer to a hand-back declines it ("no thanks", "not now", "skip"). */
export const DECLINE: RuleSet = {
  name: 'DECLINE',
  groups: [
    {
      lang: 'en',
      examples: [],
      patterns: [
        /^(?:no|nope|nah|not now|not yet|skip(?: it| that)?|leave it|never ?mind|don't bother|no need)(?![\w'])/,
      ],
    },
    { lang: 'ru', examples: [], patterns: [/^(?:нет|не надо|не нужно)/] },
    { lang: 'fr', examples: [], patterns: [/^(?:non|pas besoin|pas maintenant)/] },
    { lang: 'es', examples: [], patterns: [/^(?:no gracias|todavía no|no hace falta)/] },
    { lang: 'pl', examples: [], patterns: [/^(?:nie|jeszcze nie)(?! wiem)/] },
    { lang: 'zh', examples: [], patterns: [/^(?:不用|不要|不需要|算了|先不)/] },
    { lang: 'ja', examples: [], patterns: [/^(?:いいえ|いらない|結構です|大丈夫です)/] },
  ],
};

/** The person's answer to a hand-back approves it ("yes", "go ahead", "do it", "да", "好的"). */
export const APPROVE: RuleSet = {
  name: 'APPROVE',
  groups: [
    {
      lang: 'en',
      examples: ['dev-msg-0094', 'dev-msg-0107', 'dev-msg-0227', 'dev-msg-0242', 'dev-msg-0229'],
      patterns: [
        /^(?:yes|yep|yeah|yup|y|ok|okay|sure|go|go ahead|do it|please do|proceed|continue|sounds good|lgtm|great|perfect|alright|fine)(?![\w'])/,
        /^(?:let's do it|go for it|ship it|keep going|confirmed|approved|start)(?![\w'])/,
      ],
    },
    {
      lang: 'ru',
      examples: ['dev-msg-0008', 'dev-msg-0249'],
      patterns: [/^(?:да|давай|конечно|продолжай|далее)/],
    },
    {
      lang: 'fr',
      examples: ['dev-msg-0195'],
      patterns: [/^(?:oui|d'accord|vas-y|allez-y|très bien|tres bien)/],
    },
    {
      lang: 'es',
      examples: [],
      patterns: [/^(?:sí|si|claro|dale|adelante|de acuerdo)(?=[ ,.!]|$)/],
    },
    {
      lang: 'it',
      examples: ['dev-msg-0187', 'dev-msg-0247'],
      patterns: [/^(?:sì|si|certo|va bene|procedi)(?=[ ,.!]|$)/],
    },
    { lang: 'pl', examples: ['dev-msg-0232'], patterns: [/^(?:tak|jasne|dobrze)/] },
    {
      lang: 'zh',
      examples: ['dev-msg-0106', 'dev-msg-0188'],
      patterns: [/^(?:好的|好吧|好(?=[，,。 ])|可以|行|是的|继续|确认|帮我)/],
    },
    { lang: 'ja', examples: [], patterns: [/^(?:はい|お願い|進めて)/] },
  ],
};

/**
 * The person's message says only they have what is needed: a credential, a decision that is theirs, a pending
 * review, "wait until …". After such a message a hand-back is right, and no reminder is due (`NEEDS_PERSON`).
 */
export const NEEDS_PERSON: RuleSet = {
  name: 'NEEDS_PERSON',
  groups: [
    {
      lang: 'en',
      examples: [],
      patterns: [
        /wait (?:until|till|for me|for my)|(?:don't|do not) (?:do anything|proceed|continue|push|deploy|merge) (?:until|before|yet)/,
        /i(?:'ll| will) (?:do|handle|run|review|deploy|log in|login|sign in|enter|paste|send|give you|provide) (?:it|that|this|the|them|myself|you)/,
        /(?:let me|i need to|i have to|i want to) (?:check|review|think|decide|ask|talk|confirm|discuss)/,
        /(?:pending|awaiting|waiting for|needs?) (?:\w+ )?(?:review|approval|sign-?off)|(?:it's|that's) (?:my|our) (?:call|decision)/,
        /i (?:don't|do not) have (?:the |an? )?(?:access|permission|key|token|password|credentials?)/,
        /(?:my|the) (?:password|api key|token|credentials|2fa|otp) (?:is|are)/,
      ],
    },
    {
      lang: 'es',
      examples: ['dev-msg-0164'],
      patterns: [/no cuento con (?:el )?acceso|no tengo (?:el )?acceso|espera (?:a que|hasta)/],
    },
    {
      lang: 'fr',
      examples: [],
      patterns: [
        /attends? (?:que|jusqu)|je (?:le )?ferai moi-même|mot de passe|je n'ai pas (?:l'accès|accès)/,
      ],
    },
    { lang: 'ru', examples: [], patterns: [/подожди,? пока|я сам|пароль|нет доступа/] },
    {
      lang: 'zh',
      examples: [],
      patterns: [/等我|我来(?:做|处理|确认)|我自己(?:来|做|处理)|密码|我需要(?:确认|考虑|问)|没有权限/],
    },
  ],
};

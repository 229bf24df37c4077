/** The person corrects the agent: rule sets read by `detectCorrection`. */
import { type RuleSet, ruleSet } from './rule-set.ts';

/**
 * The person opens by rejecting what the agent did or said: "no, …", "stop", "wrong", "instead …".
 * A bare "no" answering the agent's offer or question is an answer, not a correction (see `DECLINE`).
 */
export const CORRECTION_OPENING: RuleSet = /* @__PURE__ */ ruleSet('CORRECTION_OPENING', () => [
  {
    lang: 'en',
    examples: ['dev-msg-0064', 'dev-msg-0101', 'dev-msg-0245', 'dev-msg-0270'],
    patterns: [
      // "no" opens a rejection in English, Spanish, Italian and Portuguese alike, but not "no thanks", "no sé".
      /^(?:no|nope|nah|nein|não)(?![ ,.!]{0,3}(?:thanks|thank you|sorry|problem|worries|rush|idea|preference|sé|se|tengo|hay|merci|grazie|gracias))/,
      // "stop the dev server" asks for an act on a thing; "stop", "stop it", "stop doing that" reject one.
      /^(?:stop(?! (?:the|a|an|my|all|both|these|those) )|wait|hold on|undo|revert|wrong|incorrect|not quite|not like (?:that|this)|actually,? no)(?=[ ,.!?-]|$)/,
      /^(?:that|this|it)(?:'s| is| was)(?:n't| not) (?:it|right|correct|what)/,
      /^(?:(?:um+|uh+|hmm+|well)\W{0,5})?instead/,
    ],
  },
  {
    lang: 'fr',
    examples: ['dev-msg-0236', 'dev-msg-0276'],
    patterns: [/^(?:non|attends|arrête|stop(?! (?:the|a|an|my|le|la|les|un|une|mon|ma) ))(?! merci)/],
  },
  { lang: 'es', examples: [], patterns: [/^(?:espera|alto)(?=[ ,.!])/] },
  { lang: 'it', examples: [], patterns: [/^(?:aspetta|fermati|ferma)(?=[ ,.!])/] },
  { lang: 'de', examples: [], patterns: [/^(?:halt|stopp|warte|falsch)(?=[ ,.!])/] },
  { lang: 'ru', examples: [], patterns: [/^(?:нет|стоп|стой|погоди|подожди)(?! спасибо)/] },
  {
    lang: 'pl',
    examples: [],
    patterns: [/^(?:nie|stop(?! (?:the|a|an|my) )|czekaj|zaczekaj)(?=[ ,.!])(?! (?:wiem|dziękuję))/],
  },
  {
    lang: 'zh',
    examples: [],
    patterns: [/^(?:不对|错了|等等|等一下|停一下|停下|不是(?:这样|这个|我要|我想))/],
  },
  { lang: 'ja', examples: [], patterns: [/^(?:違う|ちがう|いや、|待って|ストップ|やめて)/] },
  { lang: 'ko', examples: [], patterns: [/^(?:아니|잠깐|멈춰|그만)/] },
  {
    lang: 'tr',
    examples: [],
    patterns: [/^(?:hayır|dur|bekle|yanlış|olmadı)(?=[ ,.!]|$)/u],
  },
  {
    lang: 'id',
    examples: [],
    patterns: [/^(?:bukan|tidak|nggak|gak)(?=[,.!]|$)|^(?:tunggu|salah|jangan)(?=[ ,.!]|$)/u],
  },
  { lang: 'vi', examples: [], patterns: [/^(?:không|sai|dừng|khoan|đợi)(?=[ ,.!]|$)/u] },
  { lang: 'nl', examples: [], patterns: [/^(?:nee|wacht|fout)(?=[ ,.!]|$)/u] },
  { lang: 'th', examples: [], patterns: [/^(?:ไม่ใช่|หยุด|ผิด)/] },
]);

/**
 * Anywhere in the message the person says the agent got it wrong, ignored them, should undo, or should act
 * instead of asking: "that's not what I asked", "I said", "why did you", "revert", "you do it", "don't ask".
 */
export const CORRECTION_ANYWHERE: RuleSet = /* @__PURE__ */ ruleSet('CORRECTION_ANYWHERE', () => [
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
      // What the agent was to do and did not, and work it undid: "you were supposed to", "I thought you already did",
      // "it was working before", "that made it worse". Written from the language, not from the rows.
      /you (?:were|are) (?:supposed|meant|asked) to|you should(?:'ve| have) (?:\w+ )?(?:asked|checked|read|used|kept|left|tested|run|looked)/,
      /i thought you (?:already|were going to|would|had|said)|(?:was|were) (?:working|fine) (?:before|until)|(?:it|this|that) used to work/,
      /(?:you(?:'ve| have)?|that|this|it) made (?:it|things|everything) worse|(?:it's|it is) (?:even )?worse (?:now|than)/,
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
  {
    lang: 'tr',
    examples: [],
    patterns: [
      /(?:bu|o|şu) (?:\p{L}+ )?(?:yanlış|doğru değil)|yanlış (?:yaptın|anladın|yere|dosya)|(?:sana|ben) (?:\p{L}+ ){0,3}(?:söyledim|dedim|demiştim)|(?:bunu|onu|öyle bir şey) (?:istemedim|demedim|söylemedim)/u,
      /neden (?:\p{L}+ ){0,3}(?:yaptın|sildin|değiştirdin|ekledin|kaldırdın|bozdun)|geri al|eski (?:haline|hâline) (?:getir|döndür)|(?:bozdun|unuttun|atladın)(?!\p{L})/u,
    ],
  },
  {
    lang: 'id',
    examples: [],
    patterns: [
      /(?:bukan|tidak) (?:itu |seperti itu |ini )?yang (?:saya|aku) (?:minta|mau|maksud)|(?:saya|aku) (?:sudah )?bilang|kamu (?:lupa|salah)(?!\p{L})/u,
      /kenapa (?:kamu|anda) (?:\p{L}+ ){0,2}(?:hapus|ubah|ganti|tambah)|kembalikan (?:seperti|ke)|batalkan (?:perubahan|itu)/u,
    ],
  },
  {
    lang: 'vi',
    examples: [],
    patterns: [
      /không phải (?:cái )?(?:này|đó|thế|vậy|như vậy|ý tôi)|tôi đã (?:nói|bảo|yêu cầu)|bạn (?:quên|làm sai|hiểu sai)/u,
      /(?:sao|tại sao) (?:bạn|lại) (?:\p{L}+ ){0,2}(?:xóa|sửa|đổi|thêm)|hoàn tác|khôi phục lại/u,
    ],
  },
  {
    lang: 'nl',
    examples: [],
    patterns: [
      /(?:dat|dit|het) is (?:niet (?:wat|goed|juist)|fout|verkeerd)|niet wat ik (?:vroeg|bedoelde|wilde)|ik (?:heb (?:toch )?|had )?(?:gezegd|gevraagd)|ik zei/u,
      /waarom heb je|draai (?:het|dat|dit) terug|maak (?:het|dat|dit) ongedaan|zet (?:het|dat|dit) terug|je bent (?:\p{L}+ )?vergeten/u,
    ],
  },
  { lang: 'th', examples: ['dev-msg-0256'], patterns: [/หยุด|ผิด|ไม่ใช่|บอกแล้ว|ย้อนกลับ/] },
]);

/**
 * The person turns the agent away from what it just did: another way instead, it already exists, there is no
 * need for it, they changed their mind (labelling rule 3). Read only right after an agent turn: at the start of
 * a session the same words describe a new request. A hit is a feature the learned detector weighs, not a
 * verdict (`decides` in `detect.ts`).
 */
export const REDIRECT: RuleSet = /* @__PURE__ */ ruleSet('REDIRECT', () => [
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
]);

/**
 * The agent's just-made change does not work: "it doesn't show up", "still broken", "not working again".
 * Read only right after an agent turn: with nothing before it, the same words report a new problem. A verdict
 * only right after the agent said its change works and when the message asks nothing; elsewhere a feature the
 * learned detector weighs (`decides` in `detect.ts`).
 */
export const STILL_BROKEN: RuleSet = /* @__PURE__ */ ruleSet('STILL_BROKEN', () => [
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
      /(?:something|everything)(?:'s| is) (?:very |really |totally |completely |still )?(?:wrong|off|broken)|got (?:totally |completely |all )?(?:broken|messed up)/,
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
      // What it does not do, as the English rule's first pattern: "no me abre", "no se guarda", "me sale un error".
      /no (?:me |se |lo |la |los |las )?(?:abre|carga|aparece|aparecen|muestra|guarda|cambia|actualiza|compila|arranca|inicia|responde|ejecuta|hace nada)|ya no (?:funciona|sale|aparece|se ve)|(?:me )?(?:sale|da|tira|salta) (?:un |el |este |otro )?error|(?:el )?mismo error/u,
    ],
  },
  {
    lang: 'pt',
    examples: [],
    patterns: [
      /não funciona|ainda não|continua (?:sem|igual|dando)/,
      /não (?:me |se )?(?:abre|carrega|aparece|mostra|salva|muda|atualiza|compila|inicia|responde|faz nada)|(?:o )?mesmo erro|(?:dá|deu) erro/u,
    ],
  },
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
      // What it does not do, as the English rule's first pattern: not shown, not saved, the same error.
      /(?:表示|反映|保存|起動|動作|実行|読み込|更新)(?:され|し)?(?:ない|ません|なかった)|エラーが(?:出|でる|でま|発生)|同じエラー|うまく(?:いか|動か)(?:ない|ず)|(?:消え|開か)ない/,
    ],
  },
  {
    lang: 'ko',
    examples: [],
    patterns: [/안 ?돼|작동(?:하지|을 안|이 안)|(?:여전히|아직도) (?:안|에러|오류|같은)/],
  },
  {
    lang: 'tr',
    examples: [],
    patterns: [
      /çalışmıyor|çalışmadı|olmadı|düzelmedi|değişmedi|aynı (?:hata|sorun|şey)|hata (?:veriyor|alıyorum|aldım)/u,
      /(?:hala|hâlâ|yine|tekrar|gene) (?:\p{L}+ ){0,2}(?:aynı|hata|sorun|çalışmı|olmu|görünmü|açılmı|yok)/u,
    ],
  },
  {
    lang: 'id',
    examples: [],
    patterns: [
      /(?:masih|tetap|tetep) (?:\p{L}+ ){0,2}(?:error|gagal|salah|sama|tidak|belum|gak|nggak|kosong)|tidak (?:berfungsi|bisa jalan|jalan)|(?:gak|nggak|belum) (?:jalan|berfungsi)/u,
    ],
  },
  {
    lang: 'vi',
    examples: [],
    patterns: [
      /vẫn (?:\p{L}+ ){0,2}(?:lỗi|không|chưa|bị|sai|như cũ)|không (?:hoạt động|chạy)|lỗi (?:cũ|tương tự)/u,
    ],
  },
  {
    lang: 'nl',
    examples: [],
    patterns: [
      /werkt (?:nog steeds |nog altijd |nu |ook )?niet|(?:nog steeds|nog altijd|weer) (?:\p{L}+ ){0,2}(?:fout|kapot|niet|leeg|dezelfde|hetzelfde)|dezelfde fout|niets veranderd/u,
    ],
  },
  { lang: 'th', examples: [], patterns: [/ไม่ทำงาน|ยังไม่|ยังคง/] },
]);

/** Claude Code's own markers: the person interrupted the agent or refused a tool call (labelling rule 4). */
export const INTERRUPTION: RuleSet = /* @__PURE__ */ ruleSet('INTERRUPTION', () => [
  {
    lang: 'any',
    examples: ['dev-msg-0192'],
    patterns: [
      /^\[request interrupted by user(?: for tool use)?\]/,
      /^the user doesn't want to proceed with this tool use/,
      /^user (?:rejected tool use|decision: \**rejected)/,
    ],
  },
]);

/** Messages that look like corrections and are not: Cursor's quick-fix template names an error in the code. */
export const NOT_CORRECTION: RuleSet = /* @__PURE__ */ ruleSet('NOT_CORRECTION', () => [
  {
    lang: 'en',
    examples: ['dev-msg-0032', 'dev-msg-0210', 'dev-msg-0231'],
    patterns: [
      /^for the code present, we get this error/,
      // An order to work a running thing ("stop the dev server and start it again with --inspect") is a request.
      /^(?:please )?(?:stop|start|restart|kill|rerun|run|launch) (?:the|a|an|my|your) [\w -]{0,30}(?:server|process|container|service|app|watcher|daemon|worker|emulator|simulator)\b/,
    ],
  },
]);

/**
 * A line of error output: how a pasted log opens. A message that is only such a log, sent right after the
 * agent claimed success (`CLAIMED_SUCCESS`), says the claimed fix does not work (labelling rule 2).
 */
export const ERROR_OUTPUT: RuleSet = /* @__PURE__ */ ruleSet('ERROR_OUTPUT', () => [
  {
    lang: 'any',
    examples: ['dev-msg-0046', 'dev-msg-0208', 'dev-msg-0216', 'dev-msg-0228'],
    patterns: [
      /(?<![\p{L}])(?:[a-z]{0,30}(?:error|exception)|traceback|fatal|failed|failure|err_[a-z_]+)(?![\p{L}])/u,
      /^\s*at [\w.$<>]{1,80} ?\(|^\s*\d{1,2}:\d{2}:\d{2}|^\s*\d{4}-\d{2}-\d{2}[ t]\d/,
      /[\w-]{1,60}\.(?:tsx?|jsx?|py|kt|java|go|rs|rb|php|cs|swift)[:(]\d+|status (?:code )?[45]\d\d/,
    ],
  },
]);

/** The agent said its change works or is done ("should now work", "✅", "готов", "完成"). */
export const CLAIMED_SUCCESS: RuleSet = /* @__PURE__ */ ruleSet('CLAIMED_SUCCESS', () => [
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
    patterns: [/(?:ahora|ya) (?:funciona|debería)|debería funcionar|list[oa]|corregid\p{L}*|resuelt\p{L}*/u],
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
  {
    lang: 'de',
    examples: [],
    patterns: [
      /sollte (?:jetzt |nun )?(?:funktionieren|gehen|klappen)|funktioniert (?:jetzt|nun)|behoben|erfolgreich/u,
    ],
  },
  {
    lang: 'pt',
    examples: [],
    patterns: [/(?:agora|já) (?:funciona|deve)|deve funcionar|corrigid\p{L}*|resolvid\p{L}*/u],
  },
  {
    lang: 'ko',
    examples: [],
    patterns: [/(?:이제|지금) .{0,20}(?:작동|됩니다|될 것)|(?:수정|해결)(?:했습니다|되었습니다|완료)/u],
  },
  {
    lang: 'tr',
    examples: [],
    patterns: [
      /(?:artık|şimdi) (?:\p{L}+ ){0,3}(?:çalışı?yor|çalışmalı|çalışacak|düzgün)|çalışmalı(?!\p{L})|düzeltildi|düzelttim|tamamlandı|başarıyla/u,
    ],
  },
  {
    lang: 'id',
    examples: [],
    patterns: [
      /(?:sekarang|seharusnya|harusnya) (?:\p{L}+ ){0,3}(?:berfungsi|bekerja|jalan)|sudah (?:diperbaiki|selesai|berhasil)|berhasil(?!\p{L})/u,
    ],
  },
  {
    lang: 'vi',
    examples: [],
    patterns: [
      /(?:bây giờ|giờ) (?:\p{L}+ ){0,3}(?:hoạt động|chạy)|đã (?:sửa|khắc phục|hoàn thành|xong)|thành công/u,
    ],
  },
  {
    lang: 'nl',
    examples: [],
    patterns: [/(?:zou|moet) (?:nu )?(?:moeten )?werken|werkt nu|opgelost|gerepareerd|succesvol/u],
  },
]);

/**
 * The person asks again for the whole of what the agent did only in part ("in all … files"). Read only when
 * the agent's turn handed the rest back (labelling rule 5, an instruction the agent did not carry out).
 */
export const WHOLE_SCOPE: RuleSet = /* @__PURE__ */ ruleSet('WHOLE_SCOPE', () => [
  {
    lang: 'en',
    examples: ['dev-msg-0056', 'dev-msg-0080', 'dev-msg-0271'],
    patterns: [
      /(?:in|to|for|on|check) all (?:of )?(?:the |my |your )?(?:[\w./-]+ ){0,3}(?:files|pages|components)|every (?:file|page|component)/,
    ],
  },
  { lang: 'zh', examples: [], patterns: [/所有(?:的)?(?:文件|页面|组件)/] },
]);

/**
 * The whole message is an order to fix it, right after the agent stopped short (it listed fixes for the person,
 * or said it was done). After "Want me to fix it?" the same word approves the offer instead.
 */
export const BARE_FIX: RuleSet = /* @__PURE__ */ ruleSet('BARE_FIX', () => [
  {
    lang: 'en',
    examples: ['dev-msg-0072', 'dev-msg-0183'],
    patterns: [/^(?:please )?fix(?: it| this| that)?(?: please)?[.!]*$/],
  },
  { lang: 'zh', examples: [], patterns: [/^(?:修复|修一下|改一下|修)(?:吧)?[.!。]*$/] },
]);

/**
 * The person states a standing rule of the project right after the agent acted: "always …", "never …", "we
 * never use X here", "use X, not Y", "this project uses uv run, not python", "X only please", "we already depend
 * on X", "put new X in path/". Said after the agent's turn, a rule of the house is a correction of what the agent
 * did or was about to do.
 */
export const CONVENTION: RuleSet = /* @__PURE__ */ ruleSet('CONVENTION', () => [
  {
    lang: 'en',
    examples: [],
    patterns: [
      /^(?:(?:and|also|again|remember|reminder|note)[:,]? )?(?:please )?(?:always|never) \w+/,
      /\bwe (?:never|always|don't|do not|only) (?:use|do|write|put|call|add|commit|push|run|store|import|export)\b/,
      /\b(?:use|uses|using|prefer|prefers|with) [\w@./-]+(?: [\w@./-]+)?,? (?:not|instead of|rather than|over) [\w@./-]+/,
      /\b[\w-]+ \w+ only,? please\b|\bonly [\w-]+ (?:exports?|imports?|quotes|tabs|spaces)\b/,
      /\bwe (?:already )?(?:depend on|have|use) [\w@./-]+ (?:for|already)\b|\bwe already (?:depend on|use|have)\b/,
      /^(?:please )?put (?:new |all |the |any )?[\w -]{1,30} (?:in|into|under) [\w./-]+\//,
      /^(?:please )?use (?:conventional commits|named exports|absolute imports|relative imports|tabs|spaces)\b/,
    ],
  },
]);

/**
 * The person opens by forbidding something right after the agent acted: "please don't write docstrings in specs",
 * "don't say in the commit message that …". Read only when the agent's turn did not hand back: after "Which
 * sections should I move?" or "Want me to commit?", the same words answer it.
 */
export const FORBIDDING: RuleSet = /* @__PURE__ */ ruleSet('FORBIDDING', () => [
  {
    lang: 'en',
    examples: [],
    patterns: [/^(?:please,? )?(?:don't|do not) (?!worry|bother|hesitate|mind)\w+/],
  },
]);

/**
 * The agent's next words concede that the person's message was right: "You're absolutely right", "Good catch",
 * "My mistake", "I apologize". Read on the opening of the first reply after a message no other rule called a
 * correction: the agent's own reading of what the person did. Claude Code opens most such replies this way;
 * other agents seldom do, and then nothing is lost. "You're right" accepting a suggestion is the miss it
 * allows: on the development histories' labelled turns it was right 98 times and wrong 15.
 */
export const CONCESSION: RuleSet = /* @__PURE__ */ ruleSet('CONCESSION', () => [
  {
    lang: 'en',
    examples: [],
    patterns: [
      /^(?:(?:oh|ah|yes|yeah),? )?you(?:'re| are) (?:absolutely |completely |totally |quite |entirely |so )?(?:right|correct)\b/,
      /^(?:good|great|nice|excellent) catch\b/,
      /^(?:my (?:mistake|bad|apologies)|i apologi[sz]e|apologies|sorry (?:for|about)|i was (?:wrong|mistaken))\b/,
      /^(?:thanks|thank you) for (?:catching|pointing (?:that|this|it) out|the correction)\b/,
    ],
  },
  {
    lang: 'es',
    examples: [],
    patterns: [
      /^(?:tienes|tiene|tenés) (?:toda la )?raz[oó]n\b/,
      /^(?:perd[oó]n|disculpa|disculpe|lo siento)\b/,
    ],
  },
  { lang: 'pt', examples: [], patterns: [/^(?:voc[eê] )?tem (?:toda a )?raz[aã]o\b/, /^desculp[ae]\b/] },
  {
    lang: 'fr',
    examples: [],
    patterns: [
      /^(?:tu as|vous avez) (?:tout à fait |parfaitement |bien )?raison\b/,
      /^(?:désolée?|pardon)\b/,
    ],
  },
  {
    lang: 'de',
    examples: [],
    patterns: [
      /^(?:du hast|sie haben) (?:völlig |absolut |vollkommen |natürlich )?recht\b/,
      /^entschuldigung\b/,
    ],
  },
  { lang: 'tr', examples: [], patterns: [/^(?:haklısınız|haklısın)/, /^özür dilerim/] },
  { lang: 'ru', examples: [], patterns: [/^(?:вы|ты) (?:абсолютно |совершенно )?прав/, /^извините/] },
  { lang: 'ja', examples: [], patterns: [/^(?:おっしゃる通り|ご指摘|申し訳|すみません)/] },
  { lang: 'zh', examples: [], patterns: [/^(?:你说得对|您说得对|你说的对|抱歉|对不起)/] },
  {
    lang: 'it',
    examples: [],
    patterns: [/^hai (?:perfettamente |assolutamente )?ragione\b/, /^scusa(?:mi)?\b/],
  },
  { lang: 'pl', examples: [], patterns: [/^masz (?:całkowitą |absolutną )?rację/u, /^przepraszam/] },
  { lang: 'ko', examples: [], patterns: [/^(?:맞습니다|맞아요|말씀하신 대로)/, /^죄송합니다/] },
  { lang: 'id', examples: [], patterns: [/^(?:anda|kamu) (?:benar|betul)(?!\p{L})/u, /^maaf(?!\p{L})/u] },
  { lang: 'vi', examples: [], patterns: [/^bạn (?:nói )?đúng/u, /^xin lỗi/u] },
  { lang: 'nl', examples: [], patterns: [/^je hebt (?:helemaal )?gelijk/, /^(?:sorry|excuses)(?!\p{L})/u] },
]);

/**
 * The words that make a correction a standing rule rather than a remark on the task at hand: "always", "never",
 * "from now on", "every time", "stop …ing". A correction that states one and names nothing of its project is the
 * person's own, for every project (`personal.ts`); on the labelled corrections, those that name nothing of their
 * project without such words were almost all of one task ("fix", "marche pas", "keep the label as it was").
 */
export const STANDING: RuleSet = /* @__PURE__ */ ruleSet('STANDING', () => [
  {
    lang: 'en',
    examples: [],
    patterns: [
      /(?<![\p{L}\p{N}])(?:always|never|from now on|going forward|in (?:the )?future|every ?time|each time|whenever|stop \p{L}+ing)/u,
    ],
  },
  { lang: 'es', examples: [], patterns: [/(?<![\p{L}\p{N}])(?:siempre|nunca|de ahora en adelante)/u] },
  { lang: 'fr', examples: [], patterns: [/(?<![\p{L}\p{N}])(?:toujours|jamais|désormais|à l'avenir)/u] },
  { lang: 'de', examples: [], patterns: [/(?<![\p{L}\p{N}])(?:immer|niemals|nie wieder|ab jetzt)/u] },
  { lang: 'pt', examples: [], patterns: [/(?<![\p{L}\p{N}])(?:sempre|nunca mais|daqui para frente)/u] },
  { lang: 'it', examples: [], patterns: [/(?<![\p{L}\p{N}])(?:mai più|d'ora in poi)/u] },
  { lang: 'pl', examples: [], patterns: [/(?<![\p{L}\p{N}])(?:zawsze|nigdy|od teraz)/u] },
  { lang: 'tr', examples: [], patterns: [/(?<![\p{L}\p{N}])(?:her zaman|asla|bundan sonra)/u] },
  { lang: 'ru', examples: [], patterns: [/(?<![\p{L}\p{N}])(?:всегда|никогда|впредь|с этого момента)/u] },
  { lang: 'zh', examples: [], patterns: [/总是|永远|以后|每次|始终|不要再/] },
  { lang: 'ja', examples: [], patterns: [/いつも|今後|毎回|二度と/] },
  { lang: 'ko', examples: [], patterns: [/항상|앞으로|절대/] },
]);

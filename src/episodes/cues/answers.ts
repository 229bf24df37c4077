/** How the person answers a hand-back: rule sets read by `classifyAnswer` and `needsPerson`. */
import { type RuleSet, ruleSet } from './rule-set.ts';

/** The person's answer to a hand-back declines it ("no thanks", "not now", "skip"). */
export const DECLINE: RuleSet = /* @__PURE__ */ ruleSet('DECLINE', () => [
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
]);

/** The person's answer to a hand-back approves it ("yes", "go ahead", "do it", "да", "好的"). */
export const APPROVE: RuleSet = /* @__PURE__ */ ruleSet('APPROVE', () => [
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
]);

/**
 * The person's message says only they have what is needed: a credential, a decision that is theirs, a pending
 * review, "wait until …". After such a message a hand-back is right, and no reminder is due (`NEEDS_PERSON`).
 */
export const NEEDS_PERSON: RuleSet = /* @__PURE__ */ ruleSet('NEEDS_PERSON', () => [
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
    patterns: [/attends? (?:que|jusqu)|je (?:le )?ferai moi-même|mot de passe|je n'ai pas (?:l'accès|accès)/],
  },
  { lang: 'ru', examples: [], patterns: [/подожди,? пока|я сам|пароль|нет доступа/] },
  {
    lang: 'zh',
    examples: [],
    patterns: [/等我|我来(?:做|处理|确认)|我自己(?:来|做|处理)|密码|我需要(?:确认|考虑|问)|没有权限/],
  },
]);

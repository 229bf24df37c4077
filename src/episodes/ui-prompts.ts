/**
 * Messages an agent's own interface sends in the person's name when they press a button: they arrive as the
 * person's turn but hold none of their words, so they never make a correction (a retry is the person's choice
 * of button, not a rule they gave).
 * - VS Code Copilot: "Try Again" after a failed request, "Continue" when it asks whether to keep iterating.
 * - VS Code Copilot's word that a terminal it started has finished ("[Terminal 2e6e… notification: command
 *   completed with exit code 1. …]" then the terminal's output).
 * - Cursor: "Build" on a plan ("Implement the plan as specified, it is attached for your reference…"), and
 *   Bugbot's "Fix in chat" ("Verify these issues exist and fix them:" then the bot's findings).
 */
const UI_PROMPTS: readonly RegExp[] = [
  /^@agent (?:try again|continue\b)/i,
  /^\[terminal [0-9a-f-]+ notification: /i,
  /^implement the plan as specified, it is attached for your reference\b/i,
  /^verify these issues exist and fix them:/i,
];

/** Whether a person's turn is a prompt their agent's interface wrote for them. */
export function isUiPrompt(text: string): boolean {
  const start = text.trimStart().slice(0, 120);
  return UI_PROMPTS.some((pattern) => pattern.test(start));
}

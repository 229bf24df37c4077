/** A failed tool call was the environment's, not the agent's: rule sets read by `ruleFailure`. */
import { type RuleSet, ruleSet } from './rule-set.ts';

/**
 * A failed tool call that came from the machine, the outside world or the person, not from the agent's
 * choice: a missing tool, a sandbox or permission block, a password prompt, the network, the person
 * cancelling, a file changed on disk, a runtime too new, the IDE's shell wrapper breaking (paper §4.1).
 * Kept as an environment episode and never consolidated.
 */
export const ENVIRONMENT: RuleSet = /* @__PURE__ */ ruleSet('ENVIRONMENT', () => [
  {
    lang: 'any',
    examples: ['dev-tf-0016', 'dev-tf-0030', 'dev-tf-0052', 'dev-tf-0056', 'dev-tf-0018'],
    patterns: [
      /^cancell?ed$|user (?:decision: \**rejected|rejected|denied)|doesn't want to proceed|interrupted by user/m,
      /modified since (?:it was )?read|changed on disk/,
      /enter (?:your )?(?:\w+ )?password|^(?:\[sudo\] )?password(?: for [\w.-]+)?: *$|a password is required|passphrase for/m,
      /operation not permitted|eacces|access is denied|read-only file system|sandbox|blocked by (?:\w+ ){0,2}(?:policy|sandbox|hook|globalignore)/,
      // Claude Code's own words for a call its permission system stopped (the agent formats reference).
      /permission to use [\w-]+(?: with command [\s\S]{0,300}?)? (?:has been|was) (?:auto-)?denied|requires approval/,
      /permission for this tool use was denied|requested permissions? to use [\w-]+, but you haven't granted it/,
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
  // The harness's own refusals and the machine's missing pieces, in the words the agents' harnesses and common
  // tools print (Claude Code's directory guard and choice prompt, Gemini CLI's shell and workspace guards, a
  // version manager with no version set, a cloud API not enabled). Written after the second batch's misses, so
  // its figures count as seen by the rules.
  {
    lang: 'any',
    examples: [],
    patterns: [
      /was blocked\. for security|may only change directories to|tell claude what to do differently/,
      /could not be parsed safely|not within any of the registered workspace directories|ignored by configured ignore patterns/,
      /is not running, so cannot be killed|no version is set for command|not found\.? +please install/,
      /\bpermission_denied\b|has not been used in project|api (?:is|has been) disabled/,
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
]);

/** A missing program (`command not found`): the machine lacks a tool, unless the name is a path in the project. */
export const MISSING_TOOL: RuleSet = /* @__PURE__ */ ruleSet('MISSING_TOOL', () => [
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
]);

/** Names that are the project's own (a path, a build wrapper, a script): missing means the agent ran it wrongly. */
export const PROJECT_LOCAL: RuleSet = /* @__PURE__ */ ruleSet('PROJECT_LOCAL', () => [
  {
    lang: 'any',
    examples: ['dev-tf-0015', 'dev-tf-0038'],
    patterns: [/[\\/]|^(?:gradlew|mvnw)$|\.(?:sh|py|js|mjs|ts|bat|cmd|ps1)$/],
  },
]);

/** Framing the harness puts around a command's output (Codex, Claude Code): neither error nor answer. */
export const HARNESS_FRAMING: RuleSet = /* @__PURE__ */ ruleSet('HARNESS_FRAMING', () => [
  {
    lang: 'any',
    examples: ['dev-tf-0011', 'dev-tf-0059', 'dev-tf-0063'],
    patterns: [
      /^(?:process exited with code \d+|exit code \d+|original token count: \d+|output:|wall time: .{0,40})$/m,
      // The shell prompt older exports print after the output.
      /^\(base\) .{0,80}[%$#] *$|^ps [a-z]:\\.{0,200}> *$|^[\w.-]+@[\w.-]+ .{0,120}[%$#] *$/m,
    ],
  },
]);

/** Lines the IDE's shell wrapper adds to a command's output; alone, they say the wrapper broke, not the command. */
export const SHELL_WRAPPER: RuleSet = /* @__PURE__ */ ruleSet('SHELL_WRAPPER', () => [
  {
    lang: 'any',
    examples: ['dev-tf-0003', 'dev-tf-0040', 'dev-tf-0051'],
    patterns: [/dump_zsh_state|cursor_snap_env_vars/],
  },
]);

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
export const PROBE: RuleSet = /* @__PURE__ */ ruleSet('PROBE', () => [
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
]);

/** What each kind of probe answers with when the answer is "no". */
export const PROBE_ANSWER: RuleSet = /* @__PURE__ */ ruleSet('PROBE_ANSWER', () => [
  { lang: 'any', examples: ['dev-tf-0012', 'dev-tf-0058'], patterns: [/not a git repository/] },
  {
    lang: 'any',
    examples: ['dev-tf-0004', 'dev-tf-0070'],
    patterns: [/"status": ?40[13]|http\/[\d.]+ 40[13]|40[13] (?:unauthorized|forbidden)|unauthorized/],
  },
]);

/** A command pattern `bash` refuses to run, and why. */
export interface DenyRule {
  readonly pattern: RegExp;
  readonly reason: string;
}

/** `rm` with a recursive flag (`-r`, `-R`, `-rf`, `--recursive`) somewhere among its options. */
const RM_RECURSIVE = String.raw`\brm\s+(?:-[^\s]*\s+)*(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\s+(?:-[^\s]*\s+)*`;
/** `/`, `/*`, `~`, `~/`, `~/*`, `$HOME`, `${HOME}` (optionally quoted), then the end of the word. */
const ROOT_OR_HOME = String.raw`["']?(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?)["']?(?=$|[\s;&|)])`;

/** Where a command starts: the line's start, after `;`, `&`, `|`, `(` or a backtick, or after `sudo`/`exec`/`xargs`. */
const AT_COMMAND = String.raw`(?:^|[;&|(\`]\s*|\b(?:sudo|exec|xargs|nohup)\s+)`;
/** The end of a command word. */
const WORD_END = String.raw`(?=$|[\s;&|)])`;

/**
 * The default deny list: commands that destroy a machine or a home directory, or run code
 * fetched from the network. It is a guard against accidents, not a sandbox: a determined command
 * can always be written in a way no pattern catches.
 */
export const DEFAULT_DENY_RULES: readonly DenyRule[] = [
  { pattern: new RegExp(RM_RECURSIVE + ROOT_OR_HOME), reason: 'recursive rm of / or the home directory' },
  { pattern: /\brm\b[^;&|]*--no-preserve-root/, reason: 'rm --no-preserve-root' },
  { pattern: new RegExp(`${AT_COMMAND}mkfs(?:\\.\\w+)?${WORD_END}`), reason: 'mkfs (formats a file system)' },
  { pattern: /\bdd\b[^;&|]*\bof=\/dev\/(?!null\b|zero\b|stdout\b|stderr\b|tty\b)/, reason: 'dd onto a device' },
  { pattern: />\s*\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk)\w*/, reason: 'writing onto a disk device' },
  { pattern: /:\s*\(\s*\)\s*\{[^}]*:\s*\|\s*:\s*&[^}]*\}\s*;?\s*:/, reason: 'a fork bomb' },
  { pattern: new RegExp(`${AT_COMMAND}(?:shutdown|reboot|halt|poweroff)${WORD_END}`), reason: 'shutting down or rebooting the machine' },
  { pattern: /\bsystemctl\s+(?:poweroff|reboot|halt|kexec|suspend|hibernate)\b/, reason: 'shutting down or rebooting the machine' },
  { pattern: new RegExp(`${AT_COMMAND}(?:telinit|init)\\s+[06]${WORD_END}`), reason: 'shutting down or rebooting the machine' },
  { pattern: /\b(?:curl|wget|fetch)\b[^;&]*\|\s*(?:sudo\s+)?(?:env\s+)?(?:ba|z|da|k|fi)?sh\b/, reason: 'piping a download into a shell (curl | sh)' },
  { pattern: /\b(?:ba|z|da|k)?sh\b[^;&|]*(?:<\(|\$\()\s*(?:curl|wget)\b/, reason: 'running a download in a shell (sh -c "$(curl …)")' },
  { pattern: /\bchmod\s+(?:-[^\s]*\s+)*-[a-zA-Z]*R[a-zA-Z]*\s+(?:-[^\s]*\s+)*[0-7]*7{3}\s+\/(?=$|\s)/, reason: 'chmod -R 777 /' },
];

/** User patterns (regular expression sources) as rules. */
export function denyRulesOf(patterns: readonly string[]): DenyRule[] {
  return patterns.map((source) => ({ pattern: new RegExp(source), reason: `matches the deny pattern /${source}/` }));
}

/** The first rule `command` breaks, or `undefined`. Whitespace runs are collapsed first. */
export function deniedBy(command: string, rules: readonly DenyRule[]): DenyRule | undefined {
  const normalized = command.replace(/\s+/g, ' ').trim();
  return rules.find((rule) => rule.pattern.test(normalized));
}

/** `macpilot completion bash|zsh|fish`: completion scripts made from the command table. */
import { COMMANDS, type CommandSpec, HELP, optionsOf, type OptionSpec, SHELLS } from './commands.js';

export type Shell = (typeof SHELLS)[number];

export const isShell = (word: string): word is Shell => (SHELLS as readonly string[]).includes(word);

export function completion(shell: Shell): string {
  switch (shell) {
    case 'bash':
      return bash();
    case 'zsh':
      return zsh();
    case 'fish':
      return fish();
  }
}

/** A shell word in single quotes. */
const quoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

const optionWords = (command: CommandSpec): string[] =>
  optionsOf(command).flatMap((o) => [`--${o.name}`, ...(o.short ? [`-${o.short}`] : [])]);

/** Options that take a value from a fixed list, once per name (the same name means the same list). */
function withChoices(): OptionSpec[] {
  const byName = new Map<string, OptionSpec>();
  for (const option of COMMANDS.flatMap((c) => c.options))
    if (option.choices) byName.set(option.name, option);
  return [...byName.values()];
}

/** Options that take a value the shell cannot list: after them, complete files. */
const takingValues = (): string[] => [
  ...new Set(
    COMMANDS.flatMap((c) => c.options.filter((o) => o.value && !o.choices).map((o) => `--${o.name}`)),
  ),
];

function bash(): string {
  const names = [...COMMANDS.map((c) => c.name), '--help', '--version'].join(' ');
  const perCommand = COMMANDS.map(
    (c) =>
      `    ${c.name}) opts=${quoted(optionWords(c).join(' '))}; words=${quoted((c.words ?? []).join(' '))} ;;`,
  );
  const choices = withChoices().map(
    (o) =>
      `    --${o.name}) COMPREPLY=($(compgen -W ${quoted((o.choices ?? []).join(' '))} -- "$cur")); return ;;`,
  );
  return `# macpilot completion for bash: source <(macpilot completion bash)
_macpilot() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" opts="" words=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W ${quoted(names)} -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${perCommand.join('\n')}
  esac
  case "$prev" in
${choices.join('\n')}
    ${takingValues().join('|')}) COMPREPLY=(); return ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [ "$COMP_CWORD" -eq 2 ] && [ -n "$words" ]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  fi
}
complete -o default -F _macpilot macpilot
`;
}

/** Text inside a zsh _arguments description or a _describe entry. */
const zshText = (text: string): string =>
  text.replaceAll('[', '(').replaceAll(']', ')').replaceAll(':', ' -').replaceAll("'", '’');

function zshOption(option: OptionSpec): string {
  const value = option.value
    ? `:${zshText(option.value)}:${option.choices ? `(${option.choices.join(' ')})` : option.name === 'output' ? '_files' : ''}`
    : '';
  const spec = `[${zshText(option.help)}]${value}`;
  return option.short
    ? `'(-${option.short} --${option.name})'{-${option.short},--${option.name}}'${spec}'`
    : `'--${option.name}${spec}'`;
}

function zsh(): string {
  const commands = COMMANDS.map((c) => `    '${c.name}:${zshText(c.summary)}'`);
  const perCommand = COMMANDS.map((c) => {
    const words = c.words ? [`'1:${c.name === 'completion' ? 'shell' : 'word'}:(${c.words.join(' ')})'`] : [];
    return `        ${c.name}) _arguments ${[...optionsOf(c).map(zshOption), ...words].join(' ')} ;;`;
  });
  return `#compdef macpilot
# macpilot completion for zsh: source <(macpilot completion zsh)
_macpilot() {
  local curcontext="$curcontext" state line
  local -a commands
  commands=(
${commands.join('\n')}
  )
  _arguments -C '(- *)--version[print the version]' '(- *)'{-h,--help}'[${zshText(HELP.help)}]' '1: :->command' '*:: :->argument'
  case $state in
    command) _describe -t commands 'macpilot command' commands ;;
    argument)
      case $words[1] in
${perCommand.join('\n')}
      esac ;;
  esac
}
compdef _macpilot macpilot
`;
}

function fish(): string {
  const lines = [
    '# macpilot completion for fish: macpilot completion fish > ~/.config/fish/completions/macpilot.fish',
    'complete -c macpilot -f',
    ...COMMANDS.map(
      (c) => `complete -c macpilot -n __fish_use_subcommand -a ${c.name} -d ${quotedFish(c.summary)}`,
    ),
  ];
  for (const c of COMMANDS) {
    const when = `-n ${quotedFish(`__fish_seen_subcommand_from ${c.name}`)}`;
    if (c.words) lines.push(`complete -c macpilot ${when} -a ${quotedFish(c.words.join(' '))}`);
    for (const o of optionsOf(c)) {
      const short = o.short ? ` -s ${o.short}` : '';
      const value = o.choices ? ` -xa ${quotedFish(o.choices.join(' '))}` : o.value ? ' -r' : '';
      const files = o.name === 'output' ? ' -F' : '';
      lines.push(
        `complete -c macpilot ${when}${short} -l ${o.name}${value}${files} -d ${quotedFish(o.help)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const quotedFish = (text: string): string => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

# Prints, one per line, the matches zsh's completion offers for a command line, with a completion
# script loaded: zsh -f zsh-capture.zsh <script> "<command line>". It types the line and a Tab
# into an interactive zsh on a pseudo-terminal (zpty) whose compadd prints every match. File
# matches come out unfiltered (_files hands compadd every name and a pattern), so use it for
# commands, options and fixed values. A test helper, after zsh-capture-completion.
zmodload zsh/zpty || exit 2
zpty capture zsh -f -i
zpty -w capture 'PROMPT= LISTMAX=100000; autoload -U compinit; compinit -u -D; bindkey "^I" complete-word'
zpty -w capture 'zstyle ":completion:*" list-grouped false; zstyle ":completion:*" insert-tab false'
# Said by the completion system once it has finished (typing a marker instead would be pending
# input, which makes completion stop early).
zpty -w capture 'capture-done () { print -r -- "<""DONE>" }; comppostfuncs=( capture-done )'
zpty -w capture 'compadd () { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; typeset -a __hits; builtin compadd -A __hits "$@"; (( $#__hits == 0 )) && return 1; print -rl -- "" "<HIT>"${^__hits}; }'
zpty -w capture "source ${(q)1:A}; cd ${(q)PWD}; print '<''READY>'"
local out all=''
# Keys typed while a command runs may be dropped: type the line once the shell is ready.
while zpty -r capture out; do
  [[ $out == *'<READY>'* ]] && break
done
zpty -w -n capture "$2"$'\t'
while zpty -r capture out; do
  all+=$out
  [[ $all == *'<DONE>'* ]] && break
done
zpty -d capture
for line in ${(f)all}; do
  line=${line//$'\r'/}
  [[ $line == '<HIT>'* ]] && print -r -- ${line#<HIT>}
done
exit 0

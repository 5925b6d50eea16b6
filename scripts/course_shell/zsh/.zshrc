# zsh start-up file for course terminals (see scripts/course-shell): the learner's own
# interactive set-up first, then .venv/bin in front again.
[ -f "$MEMCOURSE_USER_ZDOTDIR/.zshrc" ] && . "$MEMCOURSE_USER_ZDOTDIR/.zshrc"
ZDOTDIR=$MEMCOURSE_USER_ZDOTDIR
PATH="$MEMCOURSE_VENV_BIN:$PATH"
VIRTUAL_ENV=${MEMCOURSE_VENV_BIN:h}
export PATH VIRTUAL_ENV
rehash
# An alias wins over PATH: the course's commands are the course's in this terminal.
for _memcourse_command in python python3 pip pip3 memcourse jupyter pytest; do
    unalias "$_memcourse_command" 2>/dev/null
done
unset _memcourse_command
# A prompt hook can change PATH after every command (direnv, pyenv-virtualenv): ours runs last.
_memcourse_venv_first() {
    case "$PATH" in
        "$MEMCOURSE_VENV_BIN":*) ;;
        *) PATH="$MEMCOURSE_VENV_BIN:$PATH"; rehash ;;
    esac
}
precmd_functions+=(_memcourse_venv_first)

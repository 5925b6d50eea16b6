# zsh start-up file for course terminals (see scripts/course-shell): the learner's own
# interactive set-up first, then .venv/bin in front again.
[ -f "$MEMCOURSE_USER_ZDOTDIR/.zshrc" ] && . "$MEMCOURSE_USER_ZDOTDIR/.zshrc"
ZDOTDIR=$MEMCOURSE_USER_ZDOTDIR
PATH="$MEMCOURSE_VENV_BIN:$PATH"
VIRTUAL_ENV=${MEMCOURSE_VENV_BIN:h}
export PATH VIRTUAL_ENV
rehash

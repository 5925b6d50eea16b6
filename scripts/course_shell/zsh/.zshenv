# zsh start-up file for course terminals (see scripts/course-shell): the learner's own.
[ -f "$MEMCOURSE_USER_ZDOTDIR/.zshenv" ] && . "$MEMCOURSE_USER_ZDOTDIR/.zshenv"

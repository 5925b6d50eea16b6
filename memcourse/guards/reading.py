"""How the directive grammar reads a text before it looks for a directive: quotations removed
(reported speech), markup that hides where a clause starts set aside, the polite German "Sie" marked,
lower-cased, folded.

The grammar (:mod:`memcourse.guards.directives`) and the learned reader (:mod:`memcourse.guards.learned`)
read :func:`prepare`'s text; the learned reader's training texts were read the same way
(``scripts/train_directive_classifier.py``), so a change here changes what it was trained on.
"""

from __future__ import annotations

import re

from memcourse.guards.normalise import fold_text

__all__ = ["MARKUP", "QUOTED", "QUOTE_PLACEHOLDER", "prepare", "quotations"]

#: Quoted text is reported speech: it is removed before the grammar is read. A string that is a
#: value in structured data (after ``:``, ``[``, ``{`` or ``,``: tool output, JSON) is not a quotation,
#: and nor is the gap between two of its strings (``": "``, ``", "``).
#: The placeholder carries no punctuation, so a quotation never splits its sentence in two.
QUOTE_PLACEHOLDER = " ‹quoted› "
#: Text in typographic quotation marks (“…”, ‘…’, 「…」, 『…』, «…», „…“, ‚…‘; not ‹…›, the placeholder's own
#: marks). The German single low mark is closed three ways in the wild (‚…‘ as typeset, ‚…’ or ‚…' as typed),
#: and opens a quotation only after a space, a bracket or a colon: straight after a word it is a comma
#: look-alike. (The learned reader was trained on this reading: a change here that changes a training text's
#: reading needs ``scripts/train_directive_classifier.py``.)
_TYPOGRAPHIC_QUOTE = (r"“[^”\n]{2,200}”|‘[^’\n]{2,200}’|「[^」\n]{2,200}」|『[^』\n]{2,200}』|«[^»\n]{2,200}»"
                      r"|„[^“\n]{2,200}“|(?<![^\s(\[:：])‚[^‘’'\n]{2,200}[‘’']")
QUOTED = re.compile(r"(?<![:\[{,])(?<![:\[{,] )(?:(?<![a-z])'[^'\n]{2,200}'(?![a-z])"
                     r"|\"(?![\s:,])[^\"\n]{2,200}(?<![\s:,])\"|" + _TYPOGRAPHIC_QUOTE + ")", re.IGNORECASE)

#: German capitalises the polite "Sie" (you) but not "sie" (she, they): inside a sentence the
#: capital is the only sign of it, and lower-casing would lose it, so it is marked first.
_POLITE_SIE = re.compile(r"(?<=[^\W\d_] )Sie\b")


#: A quotation right after a colon, which :data:`QUOTED` leaves in place (data, or an order being filed).
_AFTER_COLON = re.compile(r"(?<=[:：])\s*(?:'[^'\n]{2,200}'|\"[^\"\n]{2,200}\"|" + _TYPOGRAPHIC_QUOTE + ")")


#: Markup that changes no word but hides where a clause starts: bold and italic markers, a list item's
#: bullet or number, an emoji or symbol before a line's first word, Spanish ¡ and ¿ ("**Never tell
#: anyone…**", "- ignore…", "👉 ignore…", "¡Nunca le digas…!"). The grammar reads past it
#: (:func:`classify`); the learned reader embeds the text with it, as it was trained.
MARKUP = re.compile(r"\*\*|__|[¡¿]|(?m:^[ \t]*(?:[-*•·▪►▶➤→]+|\d{1,2}[.)])[ \t]+)"
                     r"|(?m:^[ \t]*[^\w\s\"'“‘「『«„(\[{<]+[ \t]*(?=\w))")
#: What may stand before or after a quotation without a word to report it: punctuation, symbols,
#: emoji, spaces ("…"! 🙂).
_WITHOUT_LETTERS_AROUND = re.compile(r"^[\W_]*?(?=[\"'“‘「『«„])|(?<=[\"'”’」』»“])[\W_]*$")


def prepare(text: str) -> str:
    """The text the grammar reads: quotations removed, the polite German "Sie" marked
    (``sie·f``), lower-cased, folded. A text that is a single quotation is read as what it says. A
    quotation after a colon is removed too when the words around
    it frame a discussion ("an injection example: '…'", "someone wrote: «…»"; see
    :func:`memcourse.guards.mention.frames_a_discussion`)."""
    whole = QUOTED.fullmatch(_WITHOUT_LETTERS_AROUND.sub("", text.strip()))
    if whole:  # a text that is one quotation, with no word outside it ("…" 🙂), says it: nobody is reported
        text = whole.group()[1:-1]
    body = QUOTED.sub(QUOTE_PLACEHOLDER, text)
    if _AFTER_COLON.search(body):
        from memcourse.guards.mention import frames_a_discussion  # it reads texts with this module

        if frames_a_discussion(fold_text(_AFTER_COLON.sub(" ", body).lower())):
            body = _AFTER_COLON.sub(QUOTE_PLACEHOLDER, body)
    return fold_text(_POLITE_SIE.sub("sie·f", body).lower())


#: Typographic quotation marks delimit no data, so after a comma they still quote ("Según un
#: estudio, «…»"): :func:`quotations` reads them wherever they stand.
_TYPOGRAPHIC = re.compile(_TYPOGRAPHIC_QUOTE)


def quotations(text: str) -> list[str]:
    """What ``text`` quotes, without the quotation marks: the spans :func:`prepare` removes, and
    every span in typographic quotation marks."""
    spans = [m.group()[1:-1].strip() for m in QUOTED.finditer(text)]
    return list(dict.fromkeys(spans + [m.group()[1:-1].strip() for m in _TYPOGRAPHIC.finditer(text)]))

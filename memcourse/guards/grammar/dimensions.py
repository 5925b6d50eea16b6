"""What a preference may be about: the dimensions of this user's own answers the grammar reads beyond its
tables (:mod:`memcourse.guards.grammar.english` and the others): spelling and a topic kept from *this*
user, the units and currencies an answer is given in, and reminders for this user.

A directive about one of these is a preference (:mod:`memcourse.guards.directives`); the words are kept to
the forms that say how *this user's* answers are given ("convert prices to euros", 원화로 환산, "remind
me"), not any price, amount or recall ("its fee in euros", 円で, "le rappel"): a dimension word in a rule
about every answer would make that rule a preference.
"""

from __future__ import annotations

__all__ = ["dimension"]

#: Preference dimensions paraphrase brings: spelling, and a topic kept from *this* user.
_DIMENSION = {
    "es": r"\bcastellano\b|\btute\w+\b|\bde usted\b|\b(?:no|nunca|jamás) me (?:menciones|hables de|saques|recuerdes)\b",
    "de": r"\bsprich mich\b[^.!?]{0,40}\ban\b|\bmich (?:nie|nicht) (?:mehr |wieder )?(?:auf|an)\b"
          r"|\b(?:mir gegenüber|mit mir|bei mir)\s+(?:nie|nicht|niemals|kein\w*)\b|\b(?:erwähn|red|sprich)\w*\s+"
          r"(?:mir gegenüber|mit mir)\b",
    "fr": r"\bne me (?:parle|reparle) plus de\b"
          r"|\bne me (?:parle|reparle|mentionne|propose|suggère|suggere|conseille|recommande|montre|sers|envoie)s? "
          r"(?:plus |jamais |pas )+(?:de|du|des|d')"
          r"|\bavec moi,? ne (?:parle|mentionne)s? (?:jamais|plus|pas)\b",
    "ru": r"\bне (?:напоминай|упоминай|говори) мне\b|\bсо мной (?:не|никогда не) (?:говори|упоминай)\b"
          r"|\bпри мне (?:не|никогда не) (?:упоминай|говори)\b",
    "en": r"\b(?:british|american) (?:spelling|english)\b|\bspelling\b|\b(?:never|don'?t|do not) (?:mention|bring up"
          r"|talk about|ask (?:me )?about)\b[^.!?]{0,40}\b(?:with|to|around) me\b",
    "zh": r"跟我(?:对话|聊天|说话)[^，。]{0,8}(?:别|不要)",
    "ja": r"(?:私|僕|俺|わたし)(?:との(?:会話|話|やり取り|やりとり)|の前)では(?![^。]*(?:誰|みんな|他の|ほかの))",
    "ko": r"(?:나한테|나랑|나와|저한테|저랑|저와)[^.!?]{0,20}(?:얘기|이야기|말)[^.!?]{0,8}(?:하지 마|꺼내지 마)",
}
#: Units and currencies an answer is given in ("prices in euros", 원화로 환산, в Цельсиях): a dimension of
#: this user's answers in every language, added to :data:`_DIMENSION`'s forms.
_UNITS = {
    "en": r"\b(?:in (?:celsius|fahrenheit|metric|imperial)|convert\w* (?:\w+ ){0,3}(?:to|into) (?:euros?"
          r"|dollars?|pounds?"
          r"|yen|won|rubles?|yuan|metric|imperial|celsius|fahrenheit|grams|kilos?|kilomet\w+|miles)"
          r"|(?:prices|amounts|costs|budgets?) in (?:euros?|dollars?|pounds?|yen|won|rubles?|yuan)|in grams)\b",
    "es": r"\b(?:celsius|fahrenheit|convi[ée]rte\w* (?:\w+ ){0,3}a (?:euros|d[óo]lares|pesos|kil[óo]metros|gramos)"
          r"|(?:precios|importes|cantidades) en (?:euros|d[óo]lares|pesos|gramos)|en gramos)\b",
    "de": r"\b(?:celsius|fahrenheit|umgerechnet in|rechne\w* (?:\w+ ){0,3}in (?:euro|dollar|kilometer|gramm) um"
          r"|(?:preise|beträge) in (?:euro|dollar)|in kilometer\w*)\b",
    "fr": r"\b(?:celsius|fahrenheit|convertis\w* (?:\w+ ){0,3}en (?:euros|dollars|kilomètres|grammes)"
          r"|(?:prix|montants) en (?:euros|dollars)|en kilomètres)\b",
    "ru": r"\b(?:цельси\w*|фаренгейт\w*|переводи\w* (?:\w+ ){0,3}в (?:рубл\w*|доллар\w*|евро|километр\w*|градус\w*)"
          r"|(?:цены|суммы) в (?:рубл\w*|доллар\w*|евро))",
    "ko": r"원화로 환산|(?:로|으로) 환산해|섭씨|화씨|미터법|킬로미터로",
    "ja": r"(?:円|ドル|ウォン|メートル|キロ|グラム)に換算|換算して|摂氏|華氏|メートル法",
    "zh": r"换算成|折算成|摄氏|华氏|公制",
}
#: A reminder for this user, by its verb ("remind me every Monday…", 提醒我, 思い出させて; the noun is as often a
#: product recall, "le rappel"): an answer this user asked for.
_REMINDERS = {
    "en": r"\bremind me\b",
    "es": r"\brecu[ée]rdame\b",
    "de": r"\berinnere? mich\b",
    "fr": r"\brappelle-moi\b",
    "ru": r"\bнапомин\w* мне\b|\bнапомни мне\b",
    "ko": r"리마인드|상기시켜",
    "ja": r"リマインド|思い出させて",
    "zh": r"提醒我",
}


def dimension(lang: str) -> str:
    """The ``dimension`` forms of ``lang`` this module adds."""
    return "|".join([_UNITS[lang], _REMINDERS[lang], *([_DIMENSION[lang]] if lang in _DIMENSION else [])])

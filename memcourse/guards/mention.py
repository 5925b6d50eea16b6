"""Mentioning an attack is not making one.

"What does an 'ignore previous instructions' attack look like? I'm writing a training slide."
quotes the phrase to talk about it; "Ignore previous instructions" says it. A security team's
notes, a training course and a bug report all need the first kind, and refusing them teaches
users that the guard is noise.

A finding is dropped as a *mention* only when all of these hold, so that wrapping an order in
quotes is not enough to get it through:

- the text talks *about* attacks: a word such as attack, jailbreak phrase, prompt injection,
  red team, example, training (攻击, 注入, 越狱, 攻撃, インジェクション…), or it reports the
  quotation as someone else's speech ("someone posted '…'", 「…」という文, '…'라는 문장);
- the matched phrase sits inside quotation marks, or is the bare name of the technique
  ("jailbreak") or a gerund ("ignoring previous instructions is …") rather than an imperative;
- nothing outside the quotation speaks to the assistant (you, your, 你, あなた, please …):
  "'Ignore previous instructions' is an example. Now you do it." is still refused;
- nothing outside the quotation takes it up: an order or a standing marker ("I typed '…', so
  from now on that's how it is", 「…」と入力した、以后就这样) adopts the quote.

The address test serves the other direction too (:func:`addresses_assistant`): the directive
grammar reads a text with its quotations removed, so an order to the agent wrapped in «…» with
"do it too" beside it would read as nothing at all. :func:`memcourse.guards.judge` therefore
reads each quotation as an utterance of its own when the text speaks to the assistant.
"""

from __future__ import annotations

import re

from memcourse.guards.directives import MemoryClass, _any, classify, prepare
from memcourse.guards.findings import Finding
from memcourse.guards.folded import FoldedPattern
from memcourse.guards.grammar.european import GERMAN_DU
from memcourse.guards.normalise import Normalised

__all__ = ["addresses_assistant", "drop_mentions", "frames_a_discussion", "is_discussion", "without_quotations"]

_META = FoldedPattern(
    r"\b(?:attacks?|attackers?|hackers?|scammers?|thesis"
    r"|jailbreak (?:phrases?|prompts?|attempts?|techniques?|examples?)|prompt[- ]injections?|injections?"
    r"|red[- ]team(?:ers|ing)?|"
    r"phishing|payloads?|adversarial|security (?:training|awareness|research|review|team)"
    r"|training (?:slides?|deck|course|session|material)|"
    r"(?:common|typical|known|classic|famous) (?:phrases?|tricks?|patterns?|techniques?|attacks?|jailbreaks?)|look like"
    r"|is called|known as|papers?|study|studies|research|article|blog post|screenshots?|ctf"
    # the same frames in Spanish, French, German and Russian
    r"|estudio|investigaci[oó]n|art[ií]culo|captura|[ée]tude|recherche|capture d'[ée]cran|studie|forschung"
    r"|artikel|statt?[ьяеи]\w*|исследовани\w*|скриншот\w*|атак\w*|инъекци\w*|джейлбрейк\w*|доклад\w*"
    # attackers, hackers and scammers, in the same four languages
    r"|atacantes?|estafadores?|attaquants?|escrocs?|angreifer\w*|betrüger\w*|злоумышленник\w*|хакер\w*|мошенник\w*"
    # attacks, examples, phishing, awareness training and techniques, in the same four languages
    r"|(?<![./@])examples?(?![./@]\w)|ataques?|ejemplos?|t[ée]cnicas?|attaques?|exemples?|hame[çc]onnage|sensibilisation|techniques?"
    r"|angriff\w*|beispiel\w*|schulung\w*|pr[äa]sentation|пример\w*|фишинг\w*|техник\w*|тренинг\w*"
    # a talk the user gave about them ("I gave a talk on why '…' stopped working")
    r"|(?:gave|give|giving) a talk)\b"
    r"|攻击|注入|越狱|红队|安全培训|钓鱼|攻撃|インジェクション|脱獄|ジェイルブレイク|レッドチーム|セキュリティ研修"
    r"|攻击者|黑客|骗子|攻撃者|ハッカー|詐欺|공격자|해커|사기꾼"
    r"|论文|論文|研究|文章|报告|報告|截图|截圖|釣魚|記事|スクショ|논문|연구|기사|스크린샷|캡처|공격|인젝션|탈옥"
    r"|例子|案例|手法|手段|事例|手口|フィッシング|研修|예시|사례|피싱|보안 교육|수법|기법"
    r"|范例|示例|样例|恶意(?:邮件|软件|链接|网站|指令|提示)|资安|信息安全|网络安全|安全课程")
#: A quotation framed as reported speech: someone posted / said / showed it, "a sentence like
#: …", 「…」という文, '…'라는 문장 (every supported language).
_REPORTED = FoldedPattern(
    r"\b(?:posted|wrote|writes|said|says|sent|showed|shared|typed|pasted|tweeted|quoted|read|saw|seen|received|got|"
    r"(?:phrases?|sentences?|messages?|lines?|prompts?|texts?|tricks?|strings?|markers?|tags?) (?:like|such as)"
    r"|the (?:phrase|sentence|line|prompt|message|trick)|"
    r"publicó|escribió|dijo|la frase|gepostet|geschrieben|gesagt|der satz|den satz|publié|écrit|la phrase|выложил"
    r"|написал|сказал|фразу|фраза|пишут|говорят|la cadena|une cha[iî]ne|der string|строку|строка"
    # "phrases like …" and "I read that …" in Spanish, French, German and Russian
    r"|(?:frases?|mensajes?|phrases?|messages?|s[aä]tzen?|nachrichten|фраз\w*|сообщени\w*)"
    r" (?:como|comme|wie|вроде|типа)"
    r"|le[ií]|j'ai lu|gelesen|читал\w*|прочитал\w*|прочла|прочёл"
    # "says", and "saying … to a bot", in the same four languages
    r"|dice|dicen|decirle|dit|disent|dire [àa]|sagt|sagen|говорит|написать|сказать"
    # verbs of typing, entering and asking a bot: "someone typed '…' into our bot"
    r"|asked|told|entered|input|submitted|tried|tr(?:y|ies|ying)|escribió|preguntó|tecleó|introdujo|eingegeben"
    r"|gefragt|getippt|meinte|meint|такой|такая|рассказывал\w*|рассказал\w*|пишет"
    r"|tapé|demandé|saisi|ввёл|спросил|набрал"
    # whispered, murmured: a character's speech in a story
    r"|whisper\w*|murmur\w*|chuchot\w*|susurr\w*|flüster\w*|шепч\w*|шепнул\w*|прошептал\w*)\b"
    r"|低声说|悄悄说|小声说|ささや|囁|속삭"
    r"|发了|发过|写了|寫了|说了|說了|贴了|貼了|看到|这样的话|这种话|这类|之类|输入|打了|问了|说|說|写着|寫著|写道|寫道"
    r"|という|って書|と(?:打ち込|入力|聞|書)|言うには|によると"
    r"|打ち込んだ|入力した|라는|라고|같은|입력했|쳤"
    # Japanese hearsay and typing, as reports only (言ってた, 「…」って打ってた / 打ち込んで遊んで, 騙す手口),
    # never a te-form request (「…」って送って) or the idiom 騙されたと思って ("just try it")
    r"|言って(?:た|る|いた|いる)(?!(?:通|とお)り)"
    r"|って(?:[^。、]{0,12})?(?:打って|打ち込んで|入力して|送って|書いて)(?:た|る|い|遊|騙|だま)"
    # …and the typing named as a thing people do (「…」ってAIに打ち込むいたずら, …と入力する人)
    r"|(?:って|と)(?:[^。、]{0,12})?(?:打ち込む|入力する|打つ|送る|書き込む)(?:いたずら|イタズラ|人|の|こと|遊び|手口|ケース|例)"
    # "shown" (a workshop showed how someone wrote '…') in German, French, Spanish and Russian
    r"|\b(?:gezeigt|montr[ée]|mostr[óo]|показал\w*)\b"
    r"|(?:だま|騙)(?:す(?:手口|詐欺|人|メール)|された(?!と思って|気))")
#: Words that speak to the assistant (outside any quotation).
_ADDRESS = FoldedPattern(
    r"\b(?:you|your|yours|yourself|u|ur|please|pls|now do|do it|do this|do that|from now on|assistant"
    # Spanish, French, German, Russian: the second person and "please"
    r"|t[uú]|ti|contigo|usted(?:es)?|por favor|hazlo|toi|vous|votre|vos|s'il (?:te|vous) pla[iî]t|fais-le|faites-le"
    r"|dich|dir|dein\w*|euch|bitte|mach|ты|тебя|тебе|тобой|тво\w+|вы|вас|вам|ваш\w*|пожалуйста|сделай)\b"
    r"|你|您|あなた|君|お前|してください|して下さい|しなさい|请|너|네가|당신|해\s*줘|해\s*주세요|그렇게\s*해"
    # a bare take-up: no "you", but an order to act on the quotation ("do the same", "execute", 照做, 従え)
    r"|\b(?:follow (?:it|that|this)|obey|execute|comply|act on (?:it|that|this)|do the same|same (?:here|in|for)"
    r"|appl(?:y|ies) (?:it |that |this )?(?:here|too|as well)|let'?s (?:do|adopt|go)|adopt it|go ahead"
    r"|hacer lo mismo|obedece\w*|faire pareil|ob[ée]i[st]|genauso|befolge\w*|выполн\w*|так и делай|сделать так же)\b"
    r"|\bso should (?:the )?(?:model|assistant|bot|ai|agent)\b"
    r"|(?:^|[。！!；;,，]\s*)(?:我们|咱们|你)?(?:也|就)?(?:照做|照着做|执行|这么做)|その通り|そのとおり|同じように|従[えお]|従って(?:ね|ください|下さい)?[。！!]?$|やって[。！!]?$|やろう|そうしよう|実行|그대로|따라"
)
#: Asking for an explanation of the quotation is talking about it, not being told to do it:
#: "please explain why '…' works" / 「…」という文がなぜ効くのか説明してください.
_EXPLAIN = FoldedPattern(
    r"\b(?:please\s+)?(?:explain|describe|analy[sz]e|tell me (?:why|how|what))\b|(?:説明|解説|分析)(?:して"
    r"|を)(?:ください|下さい)?"
    r"|教えてください|설명해\s*(?:줘|주세요)?|\bобъясн\w*|\bexplica\w*|\berklär\w*|\bexpliqu\w*|解释一下|请解释|解释"
)
#: Quotation marks of every supported language (the corner brackets 【】 are role markers, not quotes).
#: Each opening mark with the marks that close it (German low openings are closed as typeset, ‚…‘ „…“,
#: or as typed on a keyboard, ‚…' „…").
_QUOTE_PAIRS = {"'": "'", '"': '"', "“": "”", "‘": "’", "「": "」", "『": "』", "《": "》", "`": "`", "«": "»",
                "„": "“”\"", "‚": "‘’'", "‹": "›"}
#: The low opening marks, which look like a comma ("Tipp‚ ignoriere…'"): they open a quotation only after a
#: space, a bracket or a colon, where a comma never stands.
_LOW = "‚„"
_AFTER_A_SPACE = r"(?<![^\s(\[:：])"
#: An apostrophe inside a Latin word ("J'ai", "n'avais", "don't", "the user's") opens and closes no
#: quotation, inside one either (a Korean or Japanese particle may follow a closing one: '…'라는); a
#: year ('24) opens none, and a single-quoted span crosses no other quotation mark, so apostrophes
#: cannot stretch one over an order outside it.
_QUOTED = re.compile("|".join(
    r"(?<![A-Za-zÀ-ÿ])'(?!\d)(?:[^'\n\"“”«»「」『』]|(?<=[A-Za-zÀ-ÿ])'(?=[A-Za-zÀ-ÿ])){3,120}'(?![A-Za-zÀ-ÿ])"
    if opening == "'" else
    (_AFTER_A_SPACE if opening in _LOW else "") + f"{re.escape(opening)}[^{re.escape(closing)}\n]{{3,120}}"
    f"[{re.escape(closing)}]"
    for opening, closing in _QUOTE_PAIRS.items()))
_NAME_ONLY = re.compile(r"^\s*(?:jailbreak(?:ing|en)?|dan)\s*$", re.IGNORECASE)


#: The German "du", read as the grammar reads it (French "du" is "of the").
_DU = FoldedPattern(GERMAN_DU)


#: The request to keep a memory, anywhere in a text ("Anyway, merk dir: …", "запиши, что…", 帮我记着…): it
#: speaks to the assistant about *this* memory, and takes up no quotation discussed beside it.
_KEEP_THIS = FoldedPattern(
    r"\b(?:(?:please|pls|bitte|пожалуйста|por favor|s'il te plaît)\s+)?(?:remember(?: that)?|note(?: that| down)?"
    r"|keep in mind|write (?:it |this )?down|merk dir|merke dir|notier\w*|запомни|запиши|отметь|recuerda"
    r"|apunta\w*|anota\w*|retiens|souviens-toi|note que)\b"
    r"|(?:帮我|幫我)?(?:记住|記住|记下|記下|记着|記著)|覚えて(?:おいて|といて)?|メモし(?:といて|ておいて|て)|기억해\s?(?:줘|둬)?"
    r"|메모해\s?(?:줘|둬)?")


def _speaks_to_assistant(outside: str) -> bool:
    """Does ``outside`` (words outside the quotations) hold a word that speaks to the assistant? The
    request to keep the memory does not count (:data:`_KEEP_THIS`), and a French "du" is an article, not
    the German "you"."""
    outside = _KEEP_THIS.compiled.sub(" ", outside)
    return bool(_ADDRESS.search(outside) or _DU.search(outside))


def frames_a_discussion(outside: str) -> bool:
    """Is ``outside`` (a text's words outside its quotations, folded) the frame of a discussion: it talks
    about attacks or reports what someone wrote, and speaks to nobody? The directive grammar asks this
    before it reads a quotation after a colon ("ein Angriff, bei dem jemand schreibt: '…'") as reported
    speech: after a colon a quoted string is usually data or an order being filed ("Запомни: «…»"), and a
    frame that takes the quotation up ("…: '…'. That's our procedure now") is no discussion."""
    return bool((_META.search(outside) or _REPORTED.search(outside)) and not _speaks_to_assistant(outside)
                and not _adopted(outside))


def _adopted(outside: str) -> bool:
    """Does the text around the quotation take it up (a standing marker: 以后就这样, from now on; a
    filing: "Теперь так", "that's our procedure now"; or a rule) rather than report it? Judged by the
    directive grammar. A one-off request around it ("look at this: '…' — what does it do?") does not
    adopt it."""
    folded = prepare(outside)
    return (_any("standing", folded) is not None or _any("filing", folded) is not None
            or classify(outside).memory_class is MemoryClass.RULE)


def _unquoted(text: str) -> str:
    return _QUOTED.sub(" ", text)


def without_quotations(text: str) -> str:
    """``text`` with every quotation (in any language's marks) blanked out: the words around them."""
    return _unquoted(text)


def is_discussion(views: Normalised) -> bool:
    """Does the text talk *about* what it quotes (a discussion frame, nobody addressed, the quote
    not taken up)? See the module docstring."""
    if views.hidden or views.signals:
        return False  # hidden text or hidden characters are never a plain discussion
    text = views.text.text
    if not (_META.search(text) or _REPORTED.search(_unquoted(text))):
        return False
    # "I typed '…', so from now on that's how it is": the quote is taken up, not discussed
    return not addresses_assistant(views) and not _adopted(_around(views))


def addresses_assistant(views: Normalised) -> bool:
    """Does the text, outside its quotations, speak to the assistant ("you", "please", 你, ты…)?"""
    return _speaks_to_assistant(_around(views))


def _around(views: Normalised) -> str:
    """The text outside its quotations, a request for an explanation of them taken out."""
    return _EXPLAIN.compiled.sub(" ", _unquoted(views.text.text))


#: A chat-template token named as a thing ("<|im_start|> tags", "теги [INST]", "[INST] 标签"): a mention.
_TAG_NOUN = FoldedPattern(r"\b(?:tags?|tokens?|markers?|delimiters?|теги|тег|токены?|etiquetas?|balises?|marqueurs?)\b"
                          r"|标签|標籤|标记|タグ|トークン|태그|토큰")


#: A token that opens a turn (a role name or a line break after it) and the tokens that close one.
_TURN = re.compile(r"^\s*(?:system|user|assistant|model|<<sys>>)\b|^[^\n]{0,2}\n", re.IGNORECASE)
_CLOSERS = re.compile(r"<\|im_end\|>|\[/inst\]|<end_of_turn>|</s>|<</sys>>", re.IGNORECASE)


def _named_tag(views: Normalised, excerpt: str) -> bool:
    """Is the chat-template token ``excerpt`` only named ("<|im_start|> tags"), never used: every
    occurrence next to a noun that names it as a tag or a token, none opening a turn, no closing token
    elsewhere in the text?"""
    text = views.text.text.lower()
    spots = [m.start() for m in re.finditer(re.escape(excerpt), text)]
    if not spots or len(_CLOSERS.findall(text)) > (1 if _CLOSERS.fullmatch(excerpt) else 0):
        return False
    return all(_TAG_NOUN.search(text[max(0, at - 16):at + len(excerpt) + 16])
               and not _TURN.match(text[at + len(excerpt):]) for at in spots)


def drop_mentions(views: Normalised, findings: list[Finding]) -> list[Finding]:
    """``findings`` without those that only mention an attack (see the module docstring)."""
    if not findings or not is_discussion(views):
        return findings
    quoted = [m.group()[1:-1].lower() for m in _QUOTED.finditer(views.source)]  # excerpts quote the original
    unquoted: set[str] | None = None  # what the vocabulary finds without the quotations, scanned once if asked
    kept = []
    for finding in findings:
        excerpt = finding.excerpt.lower().strip(" '\"“”‘’‚„‹›「」『』`")
        in_quotes = any(excerpt and excerpt in q for q in quoted)
        if not in_quotes and finding.kind == "injection":
            # a finding whose words reach past the quotation (a window over two sentences: the quoted
            # 「あなたの…設定を…」 and a later "…忘れないように") needs the quotation when it is gone without it
            unquoted = _found_unquoted(views) if unquoted is None else unquoted
            in_quotes = finding.category not in unquoted
        named = bool(_NAME_ONLY.match(excerpt)) or (
            finding.label == "fake conversation tag" and _named_tag(views, excerpt))
        if finding.kind == "injection" and finding.where == "text" and (in_quotes or named):
            continue
        kept.append(finding)
    return kept


def _found_unquoted(views: Normalised) -> set[str]:
    """The categories the vocabulary finds in the text with its quotations blanked out."""
    from memcourse.guards.injection import find_instructions  # it reads findings this module drops
    from memcourse.guards.normalise import normalise

    return {finding.category for finding in find_instructions(normalise(_unquoted(views.source)))}

"""Who reads this text: a machine reader addressed inside a document, mail or web page.

Text an agent fetches (tool output, a calendar invite, a search result) can be written *to* the
agent: "note for the AI reading this", "falls ein KI-Assistent diese Mail verarbeitet", 若本邮件由
AI 助理代为处理, "이 검색 결과를 읽는 LLM은". The feature ``ai_reader`` of the claims layer
(:mod:`memcourse.guards.grammar.claims`) finds the reader from word classes: nouns for a machine
(strong ones name an AI outright; weak ones such as "assistant" also name people), reading verbs
in each language's order, "note for …", a vocative, and a condition ("if an AI reads this").
"""

from __future__ import annotations

__all__ = ["ai_reader", "machine_noun", "reader_address", "reader_if"]

#: Nouns for a machine reader. Strong ones name an AI outright; weak ones ("assistant", "agent",
#: "model") also name people and things, so they count only with a reading verb or a "note for".
_MACHINE = {
    "en": (r"ai|a\.i\.|llms?|language models?|chatbots?|ai (?:assistants?|agents?|models?|systems?)"
           r"|coding agents?|code agents?|automat\w+ (?:assistants?|agents?|systems?|tools?|readers?|processors?)",
           r"assistants?|agents?|models?|bots?|copilots?|crawlers?|summari[sz]ers?|systems?"),
    "fr": (r"ia|i\.a\.|intelligences? artificielles?|llms?|modèles? de langage|agents? (?:de code|ia|d'ia)"
           r"|assistants? (?:ia|d'ia|virtuels?)|(?:assistants?|systèmes?|outils?|agents?|programmes?) automati\w+",
           r"assistants?|agents?|modèles?|robots?|bots?"),
    "es": (r"ia|i\.a\.|inteligencias? artificiales?|llms?|modelos? de lenguaje|agentes? (?:de código|de ia|ia)"
           r"|asistentes? (?:de ia|ia|virtuales?)|(?:asistentes?|sistemas?|herramientas?|agentes?|programas?) "
           r"(?:automátic|automatizad)\w+",
           r"asistentes?|agentes?|modelos?|bots?"),
    "de": (r"ki|k\.i\.|llms?|sprachmodell\w*|coding-agent\w*|ki-\w+|code-agent\w*"
           r"|(?:automatisch|automatisiert)\w* (?:assistent\w*|system\w*|agent\w*|programm\w*|leser\w*)",
           r"assistent\w*|agent\w*|modell\w*|bots?"),
    "ru": (r"ии|нейросет\w*|языков\w+ модел\w*|llm|ai-агент\w*|агент\w* для программирования|ии-\w+"
           r"|(?:автоматическ|автоматизированн)\w+ (?:помощник\w*|ассистент\w*|систем\w*|агент\w*|программ\w*)",
           r"агент\w*|ассистент\w*|помощник\w*|модел\w*|бот\w*"),
    "ko": (r"ai|인공지능|챗봇|코딩 에이전트|ai 에이전트|언어 모델|llm"
           r"|자동(?:화)?\s*(?:도구|시스템|비서|어시스턴트|프로그램)",
           r"에이전트|어시스턴트|비서 프로그램|비서|모델|봇"),
    "ja": (r"ai|人工知能|チャットボット|言語モデル|llm|aiアシスタント|aiエージェント"
           r"|自動(?:化)?(?:ツール|システム|アシスタント|プログラム)",
           r"エージェント|アシスタント|モデル|ボット"),
    "zh": (r"ai|人工智能|智能助手|ai助手|ai\s*助理|大模型|语言模型|llm|代理程序|代理程式|智能体"
           r"|自动化?(?:阅读)?(?:工具|程序|系统|助手|助理)",
           r"助手|代理|模型|机器人"),
}

#: A reading verb after the noun (European languages put the relative clause there), reading
#: *this* text: "bots that summarise mails" is a discussion of the attack, "the model that reads
#: this" is the attack.
_READS_AFTER = {
    "en": r"(?:(?:that|who|which)\s+)?(?:reads?|reading|consum\w+|process\w*|pars\w+|summari[sz]\w+|handl\w+"
          r"|receiv\w+|scan\w*|crawl\w*|index\w*|sort\w*|sees?|seeing|writ\w+ code|work\w* (?:on|in)|manag\w+"
          r"|organi[sz]\w+|schedul\w+|triag\w+|review\w*|updat\w+|answer\w*)\s+(?:this|these"
          r"|the following|the present)\b",
    "fr": r"(?:qui (?:lisez|lit|lisent|lira|résum\w+|tri\w+|trait\w+|analys\w+|parcour\w+|reçoi\w+|voi\w+)|lisant"
          r"|traitant)"
          r"\s+(?:ce|cet|cette|ces|ceci|le présent|la présente)\b",
    "es": r"(?:que (?:lea|lean|lee|leen|procese|procesa|resuma|resume|reciba|recibe|ordene|analice)|leyendo|procesando)"
          r"\s+(?:esto|este|esta|estos|estas|lo presente)\b",
    "de": r"(?:die|der|das)\s+(?:dies\w*|das hier)\b[^.!?:]{0,40}\b(?:lies\w*|lese\w*|zusammenfass\w*|verarbeit\w*"
          r"|sortier\w*|erhält|erhalten)",
    "ru": r"(?:(?:котор\w+|что)\s+(?:чита\w+|обрабатыва\w+|разбира\w+|получ\w+|пересказыва\w+)|обработавш\w+"
          r"|прочитавш\w+|читающ\w+|обрабатывающ\w+|получивш\w+)\s+(?:эт\w+|данн\w+|настоящ\w+)\b"
          r"|для программирования|котор\w+ пиш\w+ код в этом",
}

#: A reading verb in the second person, addressing the reader ("asistente de IA que leas esto", "IA qui lis
#: ceci"): read after strong nouns only, as a person is addressed the same way ("agent Enedis qui lis ceci").
_READS_AFTER_YOU = {
    "fr": r"(?:qui (?:lis|es en train de lire|traites|résumes|reçois)|toi qui lis)\s+(?:ce|cet|cette|ces|ceci)\b",
    "es": r"que (?:leas|lees|proceses|procesas|resumas|recibas|analices)\s+(?:esto|este|esta|estos|estas)\b",
    "en": r"(?:that|who) (?:are )?(?:reading|processing|parsing) this\b",
    "de": r"(?:die|der) du (?:dies\w*|das hier)\b[^.!?:]{0,30}\b(?:liest|verarbeitest|zusammenfasst)",
    "ru": r"(?:котор\w+|что)\s+(?:читаешь|обрабатываешь)\s+(?:эт\w+)\b",
}

#: A reading verb before the noun (Chinese, Japanese and Korean put the relative clause first).
_READS_BEFORE = {
    "ko": r"(?:이|본)\s*[\w ]{1,10}?(?:을|를)?\s*(?:읽은|읽는|정리하는|처리하는|받은|요약하는|분류하는|보는"
          r"|(?:읽|정리하|처리하|요약하|분류하|보)고 있는)\s*",
    "ja": r"(?:この|本)\w{1,6}を(?:読んだ|読む|読み込んだ|受け取った|処理する|要約する|整理する|見た)",
    "zh": r"(?:负责处理|处理|读取|读到|阅读|总结|整理|收到)(?:此|本|这)[^，。,.!?！？]{0,8}的",
}

#: A note word after the noun, where the language puts it there (代理程式請注意, 에이전트 참고, AIへ).
_NOTE_AFTER = {"zh": r"(?:请注意|注意|须知)", "ko": r"(?:참고|주의)", "ja": r"(?:へ|各位|の皆様|の方へ)"}

#: "Note for …", "attention …": the noun is being addressed.
_NOTE_FOR = {
    "en": r"\b(?:note|notice|message|hint|attention|reminder|instructions?|info)\s+(?:to|for)\s+(?:all\s+|any\s+"
          r"|the\s+)?",
    "fr": r"\b(?:note|message|avis|remarque|consigne)s?\s+(?:aux|à l'|au|pour les|pour l'|pour)\s*"
          r"|\bà l'attention (?:des|de l'|du)\s*",
    "es": r"\b(?:nota|aviso|mensaje)\s+(?:para|a)\s+(?:los|las|el|la)?\s*|\batenci[óo]n,?\s+",
    "de": r"\b(?:hinweis|nachricht|notiz|achtung)\s+(?:für|an)\s+(?:alle\s+|die\s+|den\s+)?|\bliebe\s+",
    "ru": r"\b(?:к сведению|примечание для|внимание|заметка для)\s*",
    "ko": r"",
    "ja": r"",
    "zh": r"(?:^|(?<=[\n〔【(]))\s*(?:致|请注意|注意)[^，。,.]{0,6}",
}


#: Weak nouns in the plural: a class of readers addressed, not one person's job title.
_PLURAL = {"en": r"assistants|agents|models|bots|llms|copilots", "fr": r"agents|assistants|modèles|robots",
           "es": r"agentes|asistentes|modelos", "de": r"agenten|assistenten|modelle|bots",
           "ru": r"агентам|агенты|ассистентам|моделям|ботам", "ko": r"에이전트들|모델들|ai들",
           "ja": r"エージェント各位|aiの皆さん", "zh": r"各位(?:ai|助手|代理)|ai们"}


#: "If an AI reads this", with the reader as the subject of a reading verb, in either order; and,
#: in Chinese, Japanese and Korean, the reader named by the job it does on this text.
_CONDITIONAL_READER = {
    "en": r"\bif (?:an?|the|any|some)\s+(?:[\w-]+\s+){{0,2}}(?:{nouns})\b[^.!?\n]{{0,30}}"
          r"\b(?:reads?|process\w*|handl\w*|summari[sz]\w*|sees?|receiv\w*|scan\w*|manag\w*)\b",
    "de": r"\b(?:falls|wenn|sofern)\s+(?:ein|eine|einer|der|die|das)?\s*(?:[\w-]+\s+){{0,2}}(?:{nouns})\b"
          r"[^.!?\n]{{0,40}}\b(?:lies\w*|liest|verarbeit\w*|bearbeit\w*|zusammenfass\w*|erhält|sieht|sortier\w*|auswert\w*)",
    "ru": r"\bесли\s+(?:[\w-]+\s+){{0,4}}(?:чита\w+|обрабатыва\w+|получ\w+|разбира\w+|анализиру\w+)\s+"
          r"(?:[\w-]+\s+){{0,2}}(?:{nouns})|\bесли\s+(?:[\w-]+\s+){{0,2}}(?:{nouns})\b[^.!?\n]{{0,30}}(?:чита\w+|обрабатыва\w+)",
    "fr": r"\bsi (?:un|une|le|la|l')\s*(?:[\w-]+\s+){{0,2}}(?:{nouns})\b[^.!?\n]{{0,30}}\b(?:lit|traite|résume|reçoit"
          r"|analyse|parcourt)\b",
    "es": r"\bsi (?:un|una|el|la|algún|alguna)\s+(?:[\w-]+\s+){{0,2}}(?:{nouns})\b[^.!?\n]{{0,30}}\b(?:lee|procesa"
          r"|resume|recibe|analiza)\b",
    "zh": r"(?:若|如果|假如|倘若)[^，。,.!?！？]{{0,10}}由\s*(?:{nouns})[^，。,.]{{0,6}}(?:处理|阅读|读取|整理)"
          r"|(?:若|如果|假如|倘若)\s*(?:{nouns})[^，。,.]{{0,6}}(?:读到|看到|处理|阅读)"
          r"|(?:负责|管理|处理|整理)[^，。,.!?！？]{{1,8}}的(?:{strong}|{weak})\s*(?:请|须|务必|——|—|：|:)"
          r"|给[^，。,.!?！？\n]{{0,12}}(?:{strong}|{weak})\s*(?:——|—|：|:)",
    "ja": r"(?:{nouns})(?:が|は)[^。]{{0,10}}(?:読ん|処理し|読み込ん)[^。]{{0,4}}(?:たら|なら|場合)"
          r"|(?:行う|担当する|管理する|読む|処理する|まとめる|整理する)(?:{strong}|{weak})(?:は|へ|様)",
    "ko": r"(?:{nouns})(?:이|가)\s*[^.]{{0,12}}(?:읽는다면|읽으면|처리한다면|처리하면|보고 있다면)"
          r"|(?:{strong})(?:아|야)(?=[\s,!])",
}


def machine_noun(lang: str) -> str:
    """Any noun for a machine reader, strong or weak ("AI", "chatbot", "assistant", 助手), as a word."""
    strong, weak = _MACHINE[lang]
    # (Chinese, Japanese and Korean run words together, but their Latin "AI" is still a word: not the
    # "ai" of "scolaire")
    # (nor the "ai" of French "j'ai")
    if lang in _READS_AFTER:
        return rf"(?<!['’])\b(?:{strong}|{weak})\b"
    return rf"(?<![a-z'’])(?:{strong}|{weak})(?![a-z])"


def ai_reader(lang: str) -> str:
    """The ``ai_reader`` feature of one language: every form that names a machine reader of this
    text, as the subject of a reading verb ("the model that reads this") or addressed
    (:func:`reader_address`)."""
    strong, weak = _MACHINE[lang]
    nouns = f"(?:{strong}|{weak})"
    forms = []
    if lang in _READS_AFTER:
        forms.append(rf"\b{nouns}\b[^.!?:\n]{{0,25}}\b(?:{_READS_AFTER[lang]})")
    if lang in _READS_AFTER_YOU:
        forms.append(rf"\b(?:{strong})\b[^.!?:\n]{{0,25}}\b(?:{_READS_AFTER_YOU[lang]})")
    if lang in _READS_BEFORE:
        forms.append(rf"{_READS_BEFORE[lang]}[^。.!?！？\n]{{0,6}}(?:{strong}|{weak})")
    return "|".join([*forms, reader_address(lang)])


def reader_address(lang: str) -> str:
    """The ``reader_address`` feature: a machine reader *addressed* (a note for it, a vocative, "if
    you are an AI"), which makes what follows a message to it. A reader only named as the subject
    of a sentence ("if a chatbot reads this, it will miss the sarcasm") is told something only when
    the sentence gives an order (:func:`memcourse.guards.directives.classify_sentence`)."""
    strong, weak = _MACHINE[lang]
    nouns = f"(?:{strong}|{weak})"
    forms = []
    if lang in _NOTE_AFTER:
        forms.append(rf"(?:{strong}|{weak})[^。.!?！？\n]{{0,4}}{_NOTE_AFTER[lang]}")
    if _NOTE_FOR[lang]:  # "note for the assistants at the front desk" is for people: strong nouns only
        forms.append(rf"(?:{_NOTE_FOR[lang]})(?:[\w'-]+\s+){{0,2}}\b(?:{strong})\b")
    # a vocative: a strong noun (or a weak one in the plural: "Reader models:") opening a line,
    # a comment or a bracket and followed by a colon; a comma only right after the noun itself
    opening = r"(?:^|(?<=[\n>«\"(\[〔【/#*])|(?<=\s-))\s*"
    forms.append(rf"{opening}(?:[\w'-]+\s+){{0,2}}(?:{strong}|{_PLURAL[lang]})(?:[\s-]+[\w'-]+){{0,3}}\s*[:：〕】]"
                 rf"|{opening}(?:{strong}|{_PLURAL[lang]})\s*,")
    # "if you are an AI agent", "AI 코딩 에이전트라면", "AIなら"
    forms.append({"en": rf"\bif you(?:'re| are) an?\s+(?:[\w-]+\s+){{0,2}}(?:{nouns})\b",
                  "ko": rf"(?:{strong}|{weak})(?:이)?라면(?!서)", "ja": rf"(?:{strong})(?:なら|であれば)",
                  "zh": rf"如果你是(?:{strong})", "fr": rf"\bsi (?:tu es|vous êtes) une?\s+(?:{nouns})\b",
                  "es": rf"\bsi eres (?:una?\s+)?(?:{nouns})\b", "de": rf"\bwenn du (?:eine?\s+)?(?:{nouns})\b",
                  "ru": rf"\bесли ты\s*-?\s*(?:{nouns})\b"}[lang])
    return "|".join(forms)


def reader_if(lang: str) -> str:
    """The ``reader_if`` feature: a machine reader named by a condition or by its job on this text
    ("if an AI assistant processes this mail", 负责排程的助理, "이 검색 결과를 읽는 LLM"). It addresses
    the reader only when the sentence also gives an order (:func:`memcourse.guards.directives.classify_sentence`):
    "if a chatbot reads this, it will miss the sarcasm" talks about one."""
    strong, weak = _MACHINE[lang]
    return _CONDITIONAL_READER[lang].format(nouns=f"(?:{strong}|{weak})", strong=strong, weak=weak)

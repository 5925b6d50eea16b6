"""The English row of the directive grammar (see :mod:`memcourse.guards.grammar` for the features).

English marks a directive by word order (the verb first, after optional lead-ins such as
"please", "from now on" or "quietly"), so its row is built from three word lists."""

from __future__ import annotations

_CS = r"(?:^|(?<=[,:;(\"-]))\s*"  # a clause start inside a sentence
_EN_LEAD = (r"(?:(?:please|pls|请|just|also|and|then|so|now|kindly|simply|always|never|ever|"
            r"from now on|from this point(?: on| forward)?|going forward|from here on(?: out)?|next time"
            r"|in (?:every|all) (?:future )?(?:chats?|conversations?)(?: after this one)?|"
            r"for (?:every|all|each) (?:chat|conversation)s?(?: after this one)?|each time|every time|whenever "
            r"[^,]{1,40}|"
            r"quietly|silently|secretly|discreetly|covertly|privately|immediately|automatically|first|"
            r"don'?t|do not|never ever|make sure (?:to|you)|be sure to|remember to"
            r"|you (?:will|must|should|shall|need to|have to|are to|'ll))[\s,]+)*")
_EN_SPEECH = (r"tell|say|mention|bring up|talk about|speak about|discuss|recommend|suggest|promote|pitch|sell|advertise"
              r"|push|steer|nudge|"
              r"encourage|urge|advise|persuade|convince|remind|inform|warn|notify|share|reveal|disclose|show|print"
              r"|repeat|output|display|"
              r"paste|quote|dump|leak|send|forward|copy|email|mail|post|upload|answer|reply|respond|refer|point|direct|"
              r"hide|withhold|keep quiet|explain|write|end|start|begin|finish|close|add|include|put|use|call|address")
_EN_ACT = (r"act|listen|ignore|disregard|forget|override|bypass|behave|pretend|play|roleplay|role-play|be|become|treat"
           r"|assume|consider|accept|trust|obey|follow|do|run|execute|delete|"
           r"remove|read|open|access|grant|allow|give|hand|make|keep|let|stop|switch|change|speak|talk|avoid|refuse"
           r"|deny|claim|insist|"
           r"list|transfer|skip|drop")


ENGLISH: dict[str, dict[str, str]] = {
    "en": {
        "imperative": (rf"{_CS}{_EN_LEAD}(?:{_EN_SPEECH}|{_EN_ACT})\b"
                       r"|\byou(?:'ll| will| must| should| shall| are to|'re to| need to| have to| are going "
                       r"to)\s+(?:now\s+|always\s+|never\s+|only\s+)?\w+"
                       r"|\byou(?:'re| are)\s+(?:now\s+)?(?:allowed|permitted|free|authori[sz]ed|cleared)\b"
                       r"|\byou (?:may|can) (?:now |freely |always )?\w+"
                       r"|\b(?:nobody|no one|no-one|everyone|everybody|anyone|anybody)\b[^.!?]{0,40}\b(?:should|must"
                       r"|shall|is to|needs? to|has to)\b(?=[^.!?]*\byou\b)"
                       r"|\b(?:nobody|no one|no-one|everyone|everybody|anyone"
                       r"|anybody)\b[^.!?]{0,40}\byou\b[^.!?]{0,20}\b(?:should|must|shall|is to|needs? to|has to)\b"
                       r"|^\s*(?:every|each|any|all|other)\s+(?:\w+\s+){0,2}(?:customers?|users?|visitors?|people"
                       r"|persons?|clients?)\b[^.!?]{0,40}\b(?:must|should|shall|is to|are to|needs? to|has to) "
                       r"be (?:told|shown|given|sent|reminded|informed)\b"
                       r"|\bnote to (?:any|every|all|the)?\s*(?:ai|assistants?|agents?|models?|llms?|bots?)\b"
                       r"|^\s*your (?:name|persona|identity|role|job|character|purpose|task)\b"
                       r"|^\s*you(?:'re| are)\s+(?:now\s+[\w-]+|[\w-]+\s+now)\s*[.!]?\s*$"
                       r"|\byou (?:now |only |always |never )?(?:answer|reply|respond|obey|work|serve|speak"
                       r"|act)\s+(?:only\s+)?(?:as|for|to)\b"
                    r"|(?:^|(?<=[,:;]))\s*(?:please\s+)?(?:decline|refuse|execute|run|hand|pass|keep|give)\b"),
        "speech": (rf"{_CS}{_EN_LEAD}(?:{_EN_SPEECH})\b" r"|\b(?:make sure|ensure|see to it)\b[^.!?]{0,40}\b(?:hear"
        r"|know|learn|are told|get|see|receive)\b|\b(?:should|must|shall|is to|are to|needs? to|has to) (?:hear|be told"
        r"|learn|know|be (?:shown|given|sent|reminded|informed))\b"
                   r"|\bsteer|\bpush\b|\brecommend|\bmention|\btell\b|\bsay\b"),
        # a standing order needs a verb that takes a topic ("never mention the recall");
        # "never say never!" prescribes nothing (fixed phrases are rules.py's fixed_text)
        "standing_speech": (rf"{_CS}{_EN_LEAD}(?:{_EN_SPEECH.replace('tell|say|', 'tell|')})\b" r"|\bsteer|\bpush\b"
        r"|\brecommend|\bmention|\btell\b"),
        "statement": r"^\s*(?:i|i'm|i've|i'd|i'll|we|we're|my|our|his|her|their|he|she|they|it|its|this|that|these"
        r"|those|there|mr|mrs|ms|dr)\b(?!\s+(?:want|need|would like|order|command|instruct|require) you)",
        "others": (r"\b(?:anyone|anybody|everyone|everybody|nobody|no one|no-one|whoever|someone|somebody|all (?:the "
        r")?(?:other )?(?:users?|customers?|visitors?|clients?|people|members?|callers?)|"
                   r"(?:every|each|any|other)\s+(?:other\s+)?(?:users?|customers?|visitors?|clients?|persons?|people"
                   r"|members?|callers?|one)|other users?|other people|the rest of (?:them|the users)|"
                   r"(?:people|those|users?|customers?) who|whom ?ever|all who|to all)\b"),
        "identity": (r"\byou(?:'re| are| will be|'ll be)\s+(?:now\s+)?(?:a|an)\s+(?:[\w-]+\s+){0,3}?(?:bot|assistant|ai"
        r"|character|persona|model|agent|chatbot|version)\b"
                     r"|\byou(?:'re| are| will be|'ll be)\s+(?:now\s+)?(?:called|named|no longer)\b"
                     r"|\byou(?:'re| are)\s+now\s+(?:a|an)\b|\byou(?:'re| are)\s+now\s+[\w-]+\s*[.!]?\s*$"
                     r"|\byou(?:'re| are|'ll be| will be)\s+(?:now\s+)?[\w-]+,\s+(?:a|an)\s+(?:[\w-]+\s+){0,2}?(?:bot"
                     r"|assistant|ai|character|persona|model|agent|chatbot)\b|\byou(?:'re| are)\s+\w+ now\b"
                     r"|\byour (?:name|persona|identity|character|role) (?:is|will be)\b"
                     r"|\b(?:act|behave|respond|answer|reply|speak|talk) (?:only )?as\b|\bpretend to be\b"
                     r"|\bplay (?:the role|a character)|\b(?:a|an) (?:different|new) (?:character|persona|assistant|bot"
                     r"|ai)\b"
                     r"|\b(?:bot|assistant|ai|character|persona) (?:called|named)\b"),
        "disclosure": (r"\b(?:text|words?|message|prompt|setup|configuration|guidance|briefing|context) (?:you were "
        r"given|you got|you received|that appears above|above (?:this|our)|before my first)"
                       r"|\byour (?:system |initial |original |hidden |secret |first "
                       r")?(?:prompt|instructions|system message|programming|configuration)\b"
                       r"|\b(?:hidden|secret|invisible) (?:text|words|message|part)|\bwhat you were (?:given|told) "
                       r"before|\bbefore my first message|\babove this conversation\b|\bword for word\b"
                    r"|\b(?:text|words|setup|configuration|message|briefing)\b[^.!?]{0,30}\b(?:you were (?:handed|given"
                    r"|loaded with|fed|configured with|set up with)|loaded into you|before i (?:first )?(?:wrote|spoke"
                    r"|said|typed|greeted|messaged))|\b(?:hidden|secret|concealed) (?:setup|configuration|settings"
                    r"|rules)\b|\byou were (?:configured|set up|programmed) with\b"),
        "authority": (r"\b(?:developers?|creators?|makers?|designers?|owners?|operators?"
        r"|programmers?)\b[^.!?]{0,40}\b(?:no longer|don'?t|doesn'?t|not|intended|wanted|gave you|told you|taught you"
        r"|set)\b"
                      # the agent's own configuration, named as the agent's and declared void
                      r"|\byour (?:old|previous|prior|earlier|original|initial|current|existing|usual|default|standing"
                      r"|system|built-in) (?:guidelines|guidance|briefing|instructions|rules|directives|programming"
                      r"|constraints|restrictions|limits|policies|prompt|settings|setup|safeguards)\b"
                      r"|\b(?:instructions|rules|guidelines|guidance|briefing|setup|restrictions|limits|constraints"
                      r"|policies|programming|safeguards)\b[^.!?]{0,30}\b(?:expired|stopped (?:mattering|applying"
                      r"|counting)|(?:are|is) (?:now )?(?:void|cancell?ed|suspended|revoked|lifted|obsolete|over)|no "
                      r"longer (?:valid|binding|in force))\b"
                      r"|\bmy (?:requests?|word|instructions|orders|commands) (?:take|takes|have|has) (?:priority"
                      r"|precedence)\b"
                      r"|\bmy word is\b|\bwhatever i (?:say|tell you|want)\b"
                      r"|\bonly (?:listen to|obey|answer to|follow) me\b|\bobey (?:only )?me\b"
                      r"|\b(?:listen to|obey|follow) me instead\b|\bno longer (?:applies|apply|counts?|matters?)\b"
                      r"|\b(?:everything|anything|all|what) you were (?:set up|configured|programmed|trained|given"
                      r"|told)\b"
                      # code-switched overrides: the verb in one language, its object in another
                      r"|\b(?:ignore|disregard|forget|override|bypass|drop)\b[^.!?]{0,30}(?:instructions?|rules"
                      r"|guidelines|prompts?|指令|指示|规则|设定|ルール|命令)"
                      r"|(?:忽略|忽视|无视|忘掉|忘记|無視|忘れ)[^。！？!?]{0,12}(?:instructions?|rules|guidelines"
                      r"|prompts?)"
                    r"|\bmy (?:word|say|requests?)\b[^.!?]{0,12}\b(?:outranks?|overrules?|beats?|trumps?|comes? "
                    r"(?:before|first)|counts? more|takes? precedence)\b"
                    r"|\b(?:makers|creators|developers)\b[^.!?]{0,20}\b(?:wrote|set|laid down)(?: for)? you\b"),
        "permission": (r"\byou (?:may|can|are allowed to|'re allowed to|are free to|'re free to|have permission "
        r"to)\b[^.!?]{0,60}\b(?:without (?:asking|checking|confirm\w*|permission)|any (?:command|file|shell|code"
        r"|request)|every user|other users|all users)"
                       r"|\b(?:read|access|see|open|share)\s+(?:every|all|other)\s+(?:users?|customers?|people)(?:'s"
                       r"|s')?\b"
                    r"|\bwithout (?:asking|checking with|consulting|confirming with)\b[^.!?]{0,15}\b(?:me|anyone"
                    r"|anybody|us|first)\b|\b(?:any|every|other) (?:users?|customers?|shoppers?)(?:'s|s')? (?:notes"
                    r"|data|files|memories|messages|records|history)\b"),
        "exfiltration": (r"(?<!going )(?<!moving )\b(?:forward|send|copy|email|mail|post|upload|transfer|pass"
        r"|relay)\b[^.!?]{0,50}\b(?:to me|to my|into a note addressed to me|my (?:e-?mail|inbox|address|server|webhook)"
        r"|to (?:this|the following|the address))"
                         r"|\b(?:whenever|each time|every time|any time) (?:someone|somebody|anyone|a user"
                         r"|people)\b[^.!?]{0,60}\b(?:forward|send|copy|email|mail|tell me)"
                    r"|\b(?:hand|give|pass|relay)\b[^.!?]{0,20}\bto me\b"),
        "ai_reader": (r"\b(?:to|for|attention|note to|dear|hey)\s+(?:any|every|all|the)?\s*(?:ai|coding"
        r"|language)?\s*(?:assistants?|agents?|models?|llms?|bots?|ais)\b[^.!?]{0,30}\b(?:reading|that reads?|who "
        r"reads?|processing|parsing|seeing)\b"
                      # a vocative: "Coding agents: …", "AI assistants, …", "Dear LLM: …"
                      r"|(?:^|(?<=[\"'\n>]))\s*(?:(?:hey|dear|attention|note to|to|for)\s+)?(?:all\s+|any\s+"
                      r"|every\s+)?(?:ai|coding|llm|autonomous|language|code)?\s*(?:assistants?|agents?|models?|llms?"
                      r"|bots?|copilots?|ais)\s*[:,]"),
        "standing": (r"\b(?:from now on|from this point|going forward|from here on|(?:in|into|to|at the end of|at the "
        r"start of) (?:every|each|all)(?: of)?(?: your| my)? (?:answers?|replies|reply|responses?|messages?)|in "
        r"(?:every|all) (?:future )?(?:chats?|conversations?|sessions?)|for (?:every|all|each) (?:chat|conversation)s?|"
                     r"for the rest of|next time|each time|every time|whenever|always|never|no matter|regardless"
                     r"|permanently|forever)\b"),
        "me": r"\b(?:me|my|mine|myself|to me|with me|for me)\b",
        "you": r"\b(?:you|your|yours|yourself)\b",
        "answer": r"\b(?:answer|reply|respond|decline|refuse)\b",
        "promotion": r"\b(?:coupon|discount|promo|promotional|referral|affiliate|voucher|sale"
        r"|deal)s?\b[^.!?]{0,12}\b(?:codes?|links?|offers?|prices?)?",
        "dimension": (r"\b(?:english|spanish|french|german|chinese|mandarin|japanese|korean|russian|italian|portuguese"
        r"|language|"
                      r"bullets?|bullet points|lists?|tables?|markdown|headings?|summary|summaries|tl;?dr"
                      r"|format(?:ting)?|emoji|numbered|paragraphs?|"
                      r"short|shorter|brief|concise|long|longer|detailed|length|sentences?|lines?|words|under \d+|"
                      r"tone|formal|informal|casual|polite|friendly|pleasantries|jargon|simple|plain|"
                      r"code|python|javascript|typescript|java|golang|go|rust|c\+\+|kotlin|swift|sql|ruby|php|snippets?"
                      r"|examples?|"
                      r"metric|imperial|celsius|fahrenheit|units?|kilomet\w*|miles|"
                      r"call me|address me|by my (?:first )?name|"
                      r"step by step|step-by-step|detail|explanations?|sources?|citations?)\b"
                      r"|\b(?:bring up|mention|talk about|discuss)\b[^.!?]{0,30}\bmy\b|\bmy\b[^.!?]{0,40}\bwith me\b"),
    },
}

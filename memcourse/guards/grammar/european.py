"""The Spanish, German, French and Russian rows of the directive grammar.

Cyrillic is read folded like every detector's text (look-alike letters to Latin), and the
patterns are folded the same way when they compile, so they are written in natural spelling."""

from __future__ import annotations

from memcourse.guards.grammar.european_forms import MORE, RUSSIAN_MORE, SHARED_FORMS, THIRD_PERSON
from memcourse.guards.grammar.rows import merged

#: The German "du" (you) where German puts it: opening a clause, next to its verb (-st), after a conjunction.
#: French "du" ("of the": "l'IA du vaisseau", "c'est du pain", "du coup") is none of these. The mention test
#: (:mod:`memcourse.guards.mention`) reads "du" with this same rule.
GERMAN_DU = (r"(?:(?:^|(?<=[,.!?:;(]\s)|(?<=[,.!?:;(]))\s*du\b"
             r"(?!\s+(?:coup|moins|tout|reste|m[êe]me|c[ôo]t[ée]|moment|jour|matin|soir|lundi|mardi|mercredi|jeudi"
             r"|vendredi|samedi|dimanche|\d))"
             r"|\bdu\s+(?:\w+st|bist|hast|wirst)\b"
             r"|\b(?:(?!(?:est|test|ouest)\b)\w+st|wenn|ob|dass|weil|falls|als|und|aber|oder|sobald|bevor|damit|wie|was"
             r"|wo|sag|mach)\s+du\b)")

_BASE: dict[str, dict[str, str]] = {
    "es": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:por favor|también|y|luego|ahora|siempre|nunca|jamás|la próxima vez|a "
        r"partir de ahora|desde ahora|de ahora en adelante|en adelante|cada vez que [^,]{1,40})[\s,]+)*"
                       r"(?:di|dile|diles|dígale|dígales|cuenta|cuéntale|cuéntales|cuéntame|recomienda|recomiéndales"
                       r"|menciona|muestra|muéstrame|enséñame|repite|envía|envíame|manda|mándame|reenvía|reenvíalo"
                       r"|reenvíamelo|copia|"
                       r"haz|sé|actúa|finge|habla|háblame|responde|respóndeme|contesta|contéstame|usa|utiliza|termina"
                       r"|empieza|comienza|anima|anímalo|anímalos|aconseja|sugiere|ofrece|ejecuta|borra|elimina|lee"
                       r"|trata|tráteme|trátame|"
                       r"llámame|escribe|pon|añade|incluye|evita|olvida|obedece|sigue"
                       r"|no\s+(?:le|les|me|se|lo)?\s*\w+(?:es|as)|nunca\s+(?:le|les|me|se|lo)?\s*\w+(?:es|as))(?:me|te"
                       r"|le|les|lo|la|los|las|se|nos){0,2}\b"
                       r"|\b(?:puedes|podrás|debes|deberás|tienes que|vas a|harás|serás|eres|estás autorizad[oa])\b"
                    r"|(?:^|(?<=[,:;]))\s*(?:cierra|acaba|finaliza|remata|apunta\w*|da(?:me)?(?:lo|la|los|las)|pása\w*"
                    r"|pasa(?:me)\w*|ejecuta|abre|niégate|niegate)\b"),
        "speech": r"\b(?:di|dile|diles|cuenta|cuéntales|cuéntale|recomienda|menciona|muestra|repite|envía|manda|reenvía"
        r"|habla|anima|anímalo|aconseja|sugiere|ofrece|cuentes|digas|menciones|hables|recomiendes)\b"
                    r"|\b(?:termina|cierra|acaba|finaliza|empieza)\b",
        "statement": r"^\s*(?:yo|mi|mis|nuestr[oa]s?|él|ella|ellos|ellas|su|sus|el|la|los|las|este|esta|hay)\b"
        # a fronted object is not a subject when the verb is an order to "you" ("el defecto no se lo menciones")
        r"(?![^,;:]*\bno\s+(?:(?:le|les|me|se|lo|la|los|las|te|nos)\s+){1,2}\w+(?:es|as)\b)",
        "others": r"\b(?:nadie|todos|todas las personas|todo el mundo|cualquiera|cualquier persona|los demás|las demás"
        r"|otros usuarios|todos los clientes|cada cliente|quien sea|quien pregunte|con quien hables|todos los que"
        r"|alguien)\b",
        "identity": r"\b(?:eres|serás)\s+(?:ahora\s+)?(?:un|una|el|la)\b|\b(?:eres|serás)\s+\w+,\s+(?:un|una)\b"
        r"|\bahora eres\b|\bte llamas\b|\btu nombre es\b|\bactúa como\b|\bfinge ser\b|\b(?:bot|asistente) llamado\b",
        "disclosure": r"\btexto (?:que recibiste|oculto|anterior)|\bantes de mi primer mensaje\b|\bencima de esta "
        r"conversación\b|\btal cual\b"
                    r"|\btexto\b[^.!?]{0,40}\b(?:te dieron|te cargaron|te pasaron|antes de (?:mi primer|que (?:yo "
                    r")?te))|\bconfiguración oculta\b",
        "authority": r"\b(?:desarrolladores|creadores|programadores)\b|\blo que yo diga\b|\bya no valen\b|\bdecido yo\b"
        r"|\b(?:reglas|instrucciones|pautas|normas|restricciones)\b[^.!?]{0,30}\b(?:ya no (?:sirven|cuentan|aplican"
        r"|importan)|quedan anuladas|caducaron)\b"
                    r"|\bya no vale\b|\bsolo ante mí\b",
        "permission": r"\bpuedes\b[^.!?]{0,40}\b(?:sin pedirme|sin preguntar|sin confirmación|cualquier|de todos los "
        r"usuarios|de otros usuarios)|\bde todos los usuarios\b"
                    r"|\bsin (?:preguntar|consultar|pedir(?:me)? permiso|confirmar)\w*|\bde cualquier usuario\b",
        "exfiltration": r"\b(?:envía|manda|reenvía|copia)\w*\b[^.!?]{0,30}\b(?:me|a mí|mi correo|mi email)\b|\ben "
        r"secreto\b|\bmándame\b|\breenvíamel?o\b|\b(?:reenvía|envía|cópia)me\b"
                    r"|\b(?:da|pasa|entrega)me(?:lo|la|los|las)\b",
        "ai_reader": r"\b(?:para|a) (?:cualquier|todo|todos los)?\s*(?:asistentes?|agentes?|ia|modelos?)(?: de "
        r"ia)?\s+(?:que lean?|leyendo)",
        "standing": r"\b(?:a partir de ahora|desde ahora|de ahora en adelante|en adelante|siempre|nunca|jamás|cada vez"
        r"|la próxima vez|en todas las conversaciones|hables con quien hables)\b",
        "me": r"\b(?:me|mí|conmigo|mi|mis)\b",
        "you": r"\b(?:tú|tu|tus|te|ti|contigo|usted|tienes|puedes|eres|estás|debes)\b",
        "answer": r"\b(?:respond\w*|contest\w*|niég\w*)\b",
        "promotion": r"\b(?:cupón|cupones|descuentos?|promoci[oó]n\w*|enlace de referido|oferta)\b",
        "dimension": (r"\b(?:idioma|español|inglés|francés|alemán|viñetas|lista|tabla|resumen|líneas|frases|palabras"
        r"|breve|cort[oa]|concis[oa]|detallad[oa]|tono|formal|informal|de usted|de tú|tutéame|"
                      r"código|python|unidades|métric[oa]|llámame)\b"),
    },
    "de": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:bitte|auch|und|dann|jetzt|immer|nie|niemals|beim nächsten mal|ab "
        r"jetzt|ab sofort|von nun an|künftig|egal [^,]{1,30})[\s,]+)*"
                       r"(?:sag|sage|erzähl|erzähle|empfiehl|erwähne|erwähn|zeig|zeige|wiederhole|wiederhol|schick"
                       r"|schicke|sende|leite|gib|tu|tue|mach|mache|sei|verhalte|spiel|antworte|beende|beginne|fang"
                       r"|sprich|rede|"
                       r"verwende|benutze|nutze|nenne|nenn|schreib|schreibe|füge|lösche|lies|öffne|teile|verrate"
                       r"|überrede|biete|vermeide|hör|gehorche|behandle|ruf|führe)\b"
                       r"|\bdu (?:bist|wirst|darfst|kannst|sollst|musst)\b"
                       r"|\b(?:bist|wirst|darfst|kannst|sollst|musst|tust) du\b"
                    r"|(?:^|(?<=[,:;]))\s*(?:beantworte|beende|schließ|schließe|gib)\b"),
        "speech": r"\b(?:sag|sage|erzähl|erzähle|empfiehl|erwähne|erwähn|zeig|zeige|wiederhole|schick|leite|teile"
        r"|verrate|überrede|biete|sprich|rede)\b"
                    r"|\b(?:beende|schließ|schließe)\b",
        "statement": r"^\s*(?:ich|mein|meine|meiner|meinem|unser|unsere|er|sie|es|wir|der|die|das|dieser"
        r"|diese)\b(?!\s+(?:mit mir|mich))(?![^,;:]*\b(?!bist\b)\w+st du\b)"
        # the verb before its subject after a fronted clause ("wenn ein Kunde fragt, sage ich nein"): an
        # imperative never takes ich, wir or man
        r"|^\s*\w+ (?:ich|wir|man)\b",
        "others": r"\b(?:niemandem|niemand|allen|alle|jede[mnrs]? (?:kunde\w*|nutzer\w*|person|mensch\w*|einzelne\w*)"
        r"|jemand|jemandem|den anderen|andere nutzer|anderen "
        r"nutzern|aller nutzer|egal mit wem|wer auch immer|irgendwem|kunden)\b"
                    r"|\bkeinem (?:nutzer|kunden|menschen)\b|\begal an wen\b|\ballen nutzern\b",
        "identity": r"\bdu bist (?:jetzt |ab sofort |ab jetzt |nun )?(?:ein|eine|der|die)\b|\b(?:bot|assistent\w*) "
        r"namens\b|\bdein name ist\b|\bdu heißt\b|\bbist du \w+, ein\b|\bspiel(?:e)? die rolle\b"
                    r"|\b(?:ki|bot|figur|persona) namens\b",
        "disclosure": r"\btext\b[^.!?]{0,30}\b(?:bekommen|erhalten|vor meiner ersten|über diesem)|\bversteckten text\b"
        r"|\bwortwörtlich\b"
                    r"|\b(?:versteckte|verborgene|geheime) konfiguration\b|\bmit der man dich eingerichtet\b|\bvor "
                    r"meiner ersten nachricht\b|\bden man dir\b[^.!?]{0,30}\b(?:mitgegeben|gegeben)\b",
        "authority": r"\b(?:entwickler|schöpfer|hersteller)\b|\bwas ich sage\b|\bgelten nicht mehr\b|\bentscheide ich\b"
        r"|\b(?:regeln|anweisungen|vorgaben|richtlinien|einschränkungen)\b[^.!?]{0,30}\b(?:sind (?:aufgehoben|ungültig"
        r"|hinfällig|vorbei)|zählen nicht mehr)\b"
                    r"|\bgilt nicht mehr\b|\bnur,? was ich\b",
        "permission": r"\bdu darfst\b[^.!?]{0,60}\b(?:ohne rückfrage|ohne zu fragen|jeden|alle|aller)\b|\baller "
        r"nutzer\b"
                    r"|\bohne (?:vorher |mich )?(?:zu fragen|nachzufragen|rückfrage|bestätigung)",
        "exfiltration": r"\b(?:schick|leite|sende)\w*\b[^.!?]{0,40}\b(?:mir|an meine)\b|\bheimlich\b"
                    r"|\bgib (?:sie|es|ihn) mir\b",
        "ai_reader": r"\ban (?:jeden|alle|den)?\s*(?:ki-)?(?:assistenten|agenten|modelle?)\b[^.!?]{0,20}\b(?:liest"
        r"|lesen|verarbeitet)",
        # "immer noch" / "noch immer" is "still", not "always"
        "standing": r"\b(?:ab jetzt|ab sofort|von nun an|künftig|in zukunft|(?<!noch )immer(?! noch)|nie|niemals"
        r"|jedes mal|beim nächsten mal|in allen (?:künftigen )?gesprächen|egal mit wem)\b",
        "me": r"\b(?:mir|mich|mein|meine|meinen)\b",
        # (French "du" is "of the": the German pronoun is read where German puts it, next to its verb or
        # opening a clause, not after a French preposition's noun: "l'IA du vaisseau")
        "you": r"\b(?:dich|dir|dein|deine|deiner|deinem|deinen|deines)\b|" + GERMAN_DU,
        "answer": r"\b(?:beantworte\w*|antworte\w*|lehn\w* ab)\b",
        "promotion": r"\b(?:gutschein\w*|rabatt\w*|promo\w*|empfehlungslink|angebot\w*)\b",
        "dimension": (r"\b(?:sprache|deutsch|englisch|französisch|stichpunkt\w*|liste|tabelle|zusammenfassung|zeilen?"
        r"|sätze|kurz|knapp|ausführlich|ton|förmlich|mit sie|siezen|duzen|"
                      r"code|python|metrisch|einheiten|nenn mich)\b|\w*zeilig\w*"),
    },
    "fr": {
        "imperative": (r"(?:^|(?<=[,:;]))\s*(?:(?:s'il te plaît|aussi|et|puis|maintenant|toujours|jamais|la prochaine "
        r"fois|désormais|dorénavant|à partir de maintenant|peu importe [^,]{1,30}|chaque fois [^,]{1,40})[\s,]+)*"
                       r"(?:dis|dites|raconte|racontez|recommande|recommandez|mentionne|montre|montre-moi|répète|envoie"
                       r"|envoie-m'en|transfère|transfère-le|fais|faites|sois|soyez|agis|joue|réponds|répondez|termine"
                       r"|commence|parle|pousse|"
                       r"encourage|conseille|propose|utilise|exécute|supprime|lis|donne|écris|ajoute|évite|appelle-moi"
                       r"|vouvoie-moi|tutoie-moi|obéis|suis|ne\s+(?:\w+\s+)?\w+)\b"
                       r"|\btu (?:es|seras|peux|pourras|dois|devras|vas|as le droit|feras)\b"
                    r"|(?:^|(?<=[,:;]))\s*(?:finis|conclus|termine|garde-le|donne-le-moi|exécute)\b"),
        "speech": r"\b(?:dis|raconte|recommande|mentionne|montre|répète|envoie|transfère|parle|pousse|conseille|propose"
        r"|mentionne)\b"
                    r"|\b(?:termine|finis|conclus|commence)\b",
        "statement": r"^\s*(?:(?:je|mon|ma|mes|notre|nos|il|elle|ils|elles|on|le|la|les|ce|cette)\b|j'|c'|l')",
        "others": r"\b(?:personne|tout le monde|tous les clients|à tous|chaque client|aux autres|les autres "
        r"utilisateurs|autres utilisateurs|tous les utilisateurs|quiconque|peu importe à qui|quelqu'un|tous ceux|à qui "
        r"que ce soit)\b"
                    r"|\baucun utilisateur\b|\bà qui que ce soit\b",
        "identity": r"\btu (?:es|seras) (?:maintenant |désormais )?(?:un|une)\b|\btu (?:es|seras) \w+, (?:un|une)\b"
        r"|\btu t'appelles\b|\bton nom est\b|\bjoue le rôle\b|\bfais semblant\b|\b(?:robot|assistant) nommé\b"
                    r"|\b(?:ia|robot|assistant\w*|personnage) nommée?\b|\bfais comme si tu étais\b",
        "disclosure": r"\btexte\b[^.!?]{0,30}\b(?:reçu|caché|avant mon premier|au-dessus)|\bmot pour mot\b"
                    r"|\bconfiguration cachée\b|\bavec laquelle on t'a\b|\bqu'on t'a (?:fourni|donné)\b"
                    r"|\bavant (?:que je te dise|mon premier)\b",
        "authority": r"\b(?:développeurs|créateurs|concepteurs)\b|\bc'est moi qui décide\b|\bce que je dis\b|\bne "
        r"comptent plus\b|\b(?:règles|consignes|instructions|restrictions)\b[^.!?]{0,30}\b(?:ne s'appliquent plus|sont "
        r"(?:annulées|caduques|levées))\b"
                    r"|\bn'a plus cours\b|\bne compte plus\b|\bne s'applique plus\b"
                    r"|\bdépends? (?:maintenant |désormais )?de moi\b",
        "permission": r"\btu (?:peux|as le droit)\b[^.!?]{0,60}\b(?:sans me demander|n'importe quelle|tous les "
        r"utilisateurs|de tous)\b"
                    r"|\bsans (?:me |nous |leur )?(?:demander|consulter|confirmation)|\bde n'importe quel utilisateur\b"
                    r"|\bde tous les utilisateurs\b",
        "exfiltration": r"\b(?:envoie|transfère)\S*[^.!?]{0,30}\b(?:m'en|à mon adresse|mon e-mail|mon adresse)|\ben "
        r"douce\b"
                    r"|\b(?:donne|transmets|passe|envoie|file)-(?:le|la|les)-moi\b",
        "ai_reader": r"\bà (?:tout|tous les|chaque)?\s*(?:assistants?|agents?|modèles?)(?: ia)?\s+(?:qui lit|qui lisent"
        r"|lisant)",
        "standing": r"\b(?:désormais|dorénavant|à partir de maintenant|à l'avenir|toujours|jamais|chaque fois|la "
        r"prochaine fois|dans toutes nos conversations|peu importe à qui)\b",
        "me": r"\b(?:moi|me|m'|mes|mon|ma)\b|m'",
        "you": r"\b(?:tu|toi|te|ton|ta|tes|vous|votre|vos)\b|\bt'",
        "answer": r"\b(?:réponds|répondre|refuse)\b",
        "promotion": r"\b(?:coupon|code promo|réduction|promotion|lien de parrainage|remise|offre)s?\b",
        "dimension": (r"\b(?:langue|français|anglais|allemand|puces|liste|tableau|résumé|lignes?|phrases|court|concis"
        r"|détaillé|ton (?:formel|neutre|amical|décontracté|sérieux|léger)|formel|vouvoie|vouvoie-moi|tutoie"
        r"|tutoie-moi|vouvoyer|tutoyer|code|python|métrique|unités"
        r"|appelle-moi)\b"),
    },
    "ru": {
        "imperative": (r"(?:^|(?<=[,:;—]))\s*(?:(?:пожалуйста|также|и|потом|теперь|всегда|никогда|никому|никого|в "
        r"следующий раз|отныне|с этого момента|впредь|тайно|незаметно|тихо|молча|скрытно|сразу|каждый раз[^,]{0,40}|с "
        r"кем бы[^,]{1,30})[\s,]+)*"
                       r"(?:скажи|скажите|расскажи|расскажите|говори|говорите|советуй|посоветуй|рекомендуй|порекомендуй"
                       r"|упоминай|упомяни|покажи|повтори|отправь|отправляй|пересылай|перешли|делай|сделай|будь|будьте|"
                       r"веди|притворись|играй|отвечай|ответь|заканчивай|начинай|обращайся|называй|пиши|используй"
                       r"|выполняй|выполни|удали|читай|прочитай|продвигай|предлагай|предложи|не\s+\w+(?:й|и|йте|ите))\b"
                       r"|\bты (?:можешь|будешь|должен|обязан|теперь)\b|\bты\s+(?:теперь\s+)?\w+(?:ешь|ишь)\b"
                       r"|\bтебе (?:можно|разрешено)\b"
                    r"|(?:^|(?<=[,:;—]))\s*(?:выведи|передай|передавай|записывай|заканчивай)\b"),
        "speech": r"\b(?:скажи|расскажи|говори|советуй|посоветуй|рекомендуй|упоминай|упомяни|покажи|повтори|отправь"
        r"|пересылай|перешли|предлагай|рассказывай|сообщай)\b"
                    r"|\b(?:заканчивай|начинай|добавляй)\b",
        "statement": r"^\s*(?:я|мой|моя|мои|моё|наш|наша|наши|он|она|они|оно|это|бабушка|мама|папа)\b",
        "others": r"\b(?:никому|никого|всем|все|каждому|любому|другим пользователям|других пользователей|всех "
        r"пользователей|с кем бы|кто бы ни|кто-то|кто спрашивает|тем, кто|кто-нибудь)\b"
                    r"|\bкому бы\b",
        "identity": r"\bты (?:теперь |будешь )?(?:бот|помощник\w*|ии|робот|персонаж)\b|\bбудешь \w+ом\b"
                    r"|\b(?:ты|тебя|будешь|зовут|назовись|представляйся|бот|помощник|ассистент"
                    r"|персонаж)\b[^.!?]{0,20}\bпо имени\b"
        r"|\bтебя зовут\b|\bтвоё имя\b|\bпритворись\b"
                    r"|\bты\s*(?:-|—|–)\s*\w+",
        "disclosure": r"\bтекст\b[^.!?]{0,40}\b(?:получил|до моего|над этим|скрыт)|\bскрытый текст\b|\bдословно\b"
                    r"|\bскрыт\w* конфигурац\w*|\bс которой тебя настроили\b|\bтебе загрузили\b|\bдо того, как я\b",
        "authority": r"\b(?:разработчик\w*|создател\w*)\b|\bрешаю я\b|\bчто я скажу\b|\bбольше не действуют\b"
        r"|\b(?:только|лишь) (?:меня|мне|моим)\b|\b(?:правила|инструкции|ограничения"
        r"|указания)\b[^.!?]{0,30}\b(?:отменены|недействительны|не в силе|устарели)\b",
        "permission": r"\bты можешь\b[^.!?]{0,60}\b(?:без подтверждения|без спроса|любую|всех пользователей)\b|\bвсех "
        r"пользователей\b"
                    r"|\bне спрашивая\b|\bбез (?:спроса|подтверждения|разрешения)\b|\bлюбого пользователя\b",
        "exfiltration": r"\b(?:отправ\w*|пересыла\w*|перешли)\b[^.!?]{0,30}\b(?:мне|на мою|на почту)\b"
        r"|\b(?:тайно|незаметно|скрытно)\b"
                    r"|\bпереда\w*\b[^.!?]{0,15}\bмне\b",
        "ai_reader": r"\b(?:любому|всем|каждому)\s+(?:ии-)?(?:помощнику|агенту|ассистенту"
        r"|модели)\b[^.!?]{0,10}\bчитающ",
        "standing": r"\b(?:отныне|с этого момента|впредь|всегда|никогда|каждый раз|в следующий раз|во всех "
        r"(?:следующих )?разговорах|с кем бы)\b",
        "me": r"\b(?:мне|меня|мной|мой|мои|ко мне)\b",
        "you": r"\b(?:ты|тебя|тебе|тобой|твой|твоя|твои|твоих|твоё|твое|твоего|твоим|вы|вас|вам|ваш\w*)\b",
        "answer": r"\b(?:отвечай|отвечать|отказывай)\b",
        "promotion": r"\b(?:промокод\w*|купон\w*|скидк\w*|реферальн\w*|акци\w*)\b",
        "dimension": r"\b(?:языке|по-русски|по-английски|списком|список|таблиц\w*|итог\w*|резюме|строк\w*|предложени\w*"
        r"|кратк\w*|подробн\w*|тон|формальн\w*|на «вы»|на вы|на ты|код\w*|python|метрическ\w*|называй меня)\b|«вы»",
    },
}

EUROPEAN: dict[str, dict[str, str]] = merged(
    merged(merged(merged(_BASE, MORE), SHARED_FORMS), THIRD_PERSON), RUSSIAN_MORE)

"""Behaviour rules: standing orders about every future answer, an administrator's to give.

Where the line runs (the same line in every language):

- A **preference** shapes how answers are given *to this user*: the language ("answer me in
  English", "用中文回答", "日本語で答えて"), the length, the code language, the level of detail,
  a summary or bullet points. Users may set these; they are memories like any other.
- A **rule** prescribes what answers must *contain or avoid* whatever the question: a fixed
  opening or closing text, a link, a promotion, a topic never to mention ("never mention
  competitors"), or anything aimed at other users. Memory would replay it into every session, so
  only an administrator may set one; from anyone else it is refused (and at read time, a memory
  that reads like a rule but was not admin-configured is dropped).

A rule is recognised by its structure: a *standing scope* (every answer, always, from now on,
以后所有回答, 毎回) together with a *prescribed content* (a quoted text, a URL, a promotion, a
suppression, an audience of other users). A scope alone ("always answer in English") is a
preference; prescribed content without a scope is one-off ("recommend me a laptop").
Suppressions and "tell every user…" are rules without a scope word: that is their scope.
"""

from __future__ import annotations

import re

from memcourse.guards.findings import Finding, quote
from memcourse.guards.folded import FoldedPattern
from memcourse.guards.normalise import Normalised

__all__ = ["NAMED_TEXT_EN", "RULE_PATTERNS", "find_rules"]


def _c(pattern: str) -> FoldedPattern:
    return FoldedPattern(pattern)


#: A quoted text or a link. An apostrophe inside a word ("don't") is not a quotation mark.
_QUOTED = r"(?:(?<![A-Za-z])[\"'“‘「『《][^\"'”’」』》\n]{1,60}[\"'”’」』》](?![A-Za-z])|https?://\S+|www\.\S+)"
_PROMO_EN = (
    r"our|my (?:company|brand|shop|store|product|service|channel|course|app|site|website|newsletter|podcast)|the "
    r"sponsor|sponsors?|"
    r"(?:premium|pro|paid|vip|enterprise) (?:plan|tier|version|subscription)|discount|coupon|promo(?:tion| code)?|sale"
    r"|offer|deal|"
    r"affiliate|referral"
)
_ANSWERS_EN = r"(?:answers?|repl(?:y|ies)|responses?|messages?|outputs?|emails?|posts?|summaries|conversations?|chats?)"
_SCOPE_EN = (
    rf"\b(?:every|each|all|any)\s+(?:(?:of\s+)?(?:your|future|the|my|other|single)\s+)*{_ANSWERS_EN}\b|\balways\b"
    rf"|\bfrom now on\b|\bgoing forward\b"
    rf"|\bwhenever you (?:answer|reply|respond|talk|write|speak)\b|\bno matter (?:what|the question)\b|\bregardless "
    rf"of\b|\bin (?:all|every) (?:your )?{_ANSWERS_EN}|\bevery time\b"
)
_SCOPE_ZH = (r"所有|每次|每条|每个|每一|任何|全部|一切|以后|今后|往后|之后|从现在(?:开始|起)|从今以后|从今天起|一律"
             r"|总是|始终|永远|一直|无论")
_SCOPE_JA = r"すべて|全て|全部|毎回|いつも|常に|今後|これから|以後|必ず"

#: A fixed text named without quotation marks: "with the word Hello", "with the greeting Howdy", or a
#: greeting or sign-off itself ("with Hello", "with Cheers"). A format ("with a one-line summary",
#: "with the conclusion") names generated content, not a text, and is not matched.
NAMED_TEXT_EN = (
    r"\bwith\s+(?:the\s+)?(?:words?|greeting|salutation|exclamation|catchphrase|motto|sign-?off|expression)\s+\S+"
    r"|\bwith\s+(?:hello|hi|hey|howdy|greetings|ahoy|yo|dear \w+|good (?:morning|day|afternoon|evening)|cheers"
    r"|thanks|thank you|goodbye|bye|amen|namaste|aloha|peace out|best regards|kind regards)\b"
)

RULE_PATTERNS: list[tuple[str, str, FoldedPattern]] = [
    # ---- fixed text: a quoted text or a link placed in every answer -----------------------------
    ("fixed_text", "fixed text in every answer", _c(
        r"\b(?:(?:start|begin|open|prefix|preface|end|finish|close|conclude|sign off|suffix|append|prepend|add|insert"
        r"|include|attach|put|"
        r"say|write|print|output|mention|display|show|feature|carry|contain)(?:s|es|ed|ing)?|use "
        r"the (?:phrase|slogan|tagline|signature))\b[^.!?\n]{0,50}?" + _QUOTED)),
    ("fixed_text", "fixed text in every answer", _c(
        r"\b(?:start|begin|open|prefix|end|finish|close|sign off|append|prepend|add|insert|include|attach|display|show"
        r"|feature|carry|contain)(?:s|es|ed|ing)?\b[^.!?\n]{0,40}?"
        r"\b(?:the )?(?:phrase|sentence|line|slogan|tagline|signature|hashtag|banner|disclaimer|promo code|coupon code"
        r"|link|url|ad|advert(?:isement)?|"
        r"contact (?:info|details)|qr code|referral code)\b")),
    ("fixed_text", "fixed text in every answer", _c(  # "start every answer with the word Hello"
        r"\b(?:start|begin|open|preface|end|finish|close|conclude|sign off)\s+(?:(?:every|each|all|any)\s+(?:of\s+)?"
        r"(?:(?:your|future|the|single)\s+)*|your\s+)" + _ANSWERS_EN + r"\b[^.!?\n]{0,20}?(?:" + NAMED_TEXT_EN + ")")),
    ("fixed_text", "固定开头或结尾 (fixed text in every answer)", _c(
        r"(?:开头|结尾|末尾|最后|落款|签名|署名|第一句|最后一句)(?:处|时|部分)?(?:都|要|必须|请|一律|统一|先|首先|均"
        r"|需要|需|就)*(?:加上|附上|带上|写上|加|附|带|写|放|插入|注明"
        r"|显示|是|为|用|以|说)"
        # 开始/结束 are also verbs ("从现在开始用中文回答" = from now on, answer in Chinese): as the
        # place of a fixed text they need a place word after them, or an insertion verb
        r"|(?:开始|结束)(?:处|时|部分)(?:都|要|必须|请|一律|统一|先|首先|均|需要|需|就)*(?:加上|附上|带上|写上|加|附|带"
        r"|写|放|插入|注明|显示|是|为|用|以|说)"
        r"|(?:开始|结束)(?:都|要|必须|请|一律|统一|先|首先|均|需要|需|就)*(?:加上|附上|带上|写上|插入|注明|显示)"
        r"|(?:先说|说|讲|念|喊|写)(?:一句|一声|这句|这段|一段)\s*" + _QUOTED +
        r"|(?:以|用)\s*" + _QUOTED + r"\s*(?:开头|结尾|开始|结束|收尾|作为开头|作为结尾)"
        r"|(?:加上|附上|带上|插入|写上|附带|加入|放上)(?:一句|一段|这句|这段|一行|一个)?(?:链接|网址|广告|二维码|口号"
        r"|标语|签名|话术)?\s*" + _QUOTED
        + r"|(?:加上|附上|带上|插入|写上|附带|加入|放上)(?:我们的|我司的|本店的|公司的)?(?:链接|网址|广告|二维码|口号"
          r"|标语|话术|推广)")),
    ("fixed_text", "固定の文言 (fixed text in every answer)", _c(
        r"(?:冒頭|最初|最後|末尾|文末|先頭|締め)(?:に|で|は)[^。！？!?\n]{0,30}?(?:付け|つけ|入れ|書い|書く|追加|表示"
        r"|添え|始め|終わ|締め|載せ|掲載|貼|記載|挿入)"
        r"|" + _QUOTED + r"\s*(?:で|から)(?:始め|始ま|終わ|締め)"
        r"|" + _QUOTED + r"\s*(?:を|と)(?:付け|つけ|入れ|書い|追加|添え|言っ)")),
    # ---- promotion ---------------------------------------------------------------------------
    ("promotion", "standing promotion", _c(
        r"\b(?:recommend|promote|advertise|plug|mention|push|suggest|endorse|pitch|sell|market|link to|refer (?:users"
        r"|people|everyone) to|"
        r"redirect (?:users|people|everyone)? ?to|point (?:users|people) to"
        r"|upsell)\b[^.!?\n]{0,25}?(?:\b(?:" + _PROMO_EN + r")\b|" + _QUOTED + r")")),
    ("promotion", "standing "
     "promotion", _c(  # a brand by name: "always recommend AcmeCloud" (a programming language is a preference)
        r"(?:^|(?<=[.!?;:,\n]))\s*(?:please\s+)?(?:always\s+|also\s+)?(?:recommend|promote|advertise|plug|push|endorse"
        r"|pitch|upsell)\s+(?:the\s+)?(?!(?:Python|Java|JavaScript|TypeScript|Go|Rust|C|Kotlin|Swift|SQL|Ruby|PHP"
        r"|Scala)\b)"
        r"(?-i:[A-Z][A-Za-z0-9]*(?:[A-Z0-9][A-Za-z0-9]*)?)\b")),
    ("promotion", "推销 (standing promotion)", _c(
        r"(?:推荐|推销|宣传|提到|提及|附上|附带|带上|植入|引导|导流|安利|介绍|带货|提一下|加上|写上"
        r"|放上)[^。！？!?\n]{0,8}?(?:我们的|我司|本公司|本店|我的店|我的公众号|我们家|公众号"
        r"|店铺|"
        r"赞助商|优惠|限时|折扣|促销|打折|秒杀|团购|下单|购买|关注|扫码|加微信|会员|旗舰店|新品|优惠码|折扣码|邀请码"
        r"|推广码)")),
    ("promotion", "宣伝 (standing promotion)", _c(
        r"(?:当社|弊社|うちの|私たちの|我々の|自社|スポンサー)[^。！？!?\n]{0,20}?(?:宣伝|おすすめ|推薦|紹介|勧め|言及"
        r"|リンク|URL|サイト|を載せ|を掲載)"
        r"|(?:宣伝|広告|紹介|おすすめ|リンク)(?:して|する|を入れ|を付け)[^。！？!?\n]{0,10}?(?:キャンペーン|セール|割引"
        r"|クーポン|商品|サービス)")),
    # ---- suppression: a topic the assistant must never touch ----------------------------------
    ("suppression", "topic the assistant must never mention", _c(
        r"\b(?:never|don'?t|do not|avoid|refuse to|stop|must not|mustn'?t|shall not|should never|will never|under no "
        r"circumstances(?: should you| will you| do you)?|"
        r"at no (?:point|time)(?: should you)?|in no case)\s+(?:ever\s+)?(?:mention|talk about|discuss|bring up"
        r"|recommend|name|"
        r"refer to|acknowledge|compare|say anything (?:about|good about|positive about)|criticize|suggest|link to"
        r"|endorse)\b\s*(?:any\s+|the\s+|our\s+)?"
        r"(?:competitors?|competition|rivals?|other (?:brands?|products?|companies|vendors?|stores?|services|providers?"
        r"|shops?|platforms?)|"
        r"alternatives?|competing (?:products?|brands?|services)|negative (?:reviews?|news)|(?:the )?lawsuit|(?:the "
        r")?recall)"
        # "never bring up the recall with me": a topic to avoid with this user is a preference
        r"(?![^.!?\n]{0,40}\b(?:with|to|around|in front of) me\b)")),
    ("suppression", "不许提及 (topic the assistant must never mention)", _c(
        r"(?:不要|不许|不准|禁止|别|永远不要|绝对不要|不能|不得|千万别|一律不)(?:再)?(?:提到|提及|提起|提|说|谈论|谈"
        r"|推荐|介绍|比较|评价|说起|讲|夸)(?:任何)?"
        r"(?:竞争对手|竞品|对手|其他品牌|别家|友商|其他公司|其他产品|同行|负面新闻|差评)")),
    ("suppression", "言及禁止 (topic the assistant must never mention)", _c(
        r"(?:競合|競合他社|他社|ライバル|他のブランド|他の製品|他社製品)(?:について|に|の)?(?:は"
        r"|も)?[^。！？!?\n]{0,8}?(?:言及|触れ|話さ|紹介|推薦|勧め|比較)"
        r"(?:しない|しないで|するな|禁止|ないで|ません)")),
    # ---- audience: orders about what other users are told ---------------------------------------
    ("audience", "order about what other users are told", _c(
        r"\b(?:tell|answer|reply to|respond to|inform|remind|send)\s+(?:all|every|any|other"
        r"|each)\s+(?:other\s+)?(?:users?|customers?|visitors?|people|members?)\b"
        r"|\bfor (?:all|every|any|other) (?:users?|customers?)\b[^.!?\n]{0,30}?\b(?:say|answer|reply|respond|tell"
        r"|recommend|mention)\b"
        r"|(?:对|给|告诉|回复|通知|提醒)(?:所有|每个|每位|任何|其他|别的)(?:的)?(?:用户|人|客户|访客|会员)"
        # a past or polite-declarative ending reports what someone did (母はすべてのお客様にお茶を出した)
        r"|(?:すべての|全ての|他の|全)(?:ユーザー|利用者|お客様|顧客)(?:に|へ)"
        r"(?![^。！？!?\n]*(?:た|だ|ている|ていた|でした|ました|ます)\s*[。！!]?\s*(?:$|\n))")),
    # ---- an explicit attempt to store a rule ------------------------------------------------------
    ("declared_rule", "declared standing rule", _c(
        r"\b(?:remember|save|store|keep|memori[sz]e|add|follow|obey|apply)\s+(?:this|the following|these|a|my"
        r"|our)?\s*(?:new\s+|permanent\s+|standing\s+|global\s+|house\s+)?"
        r"(?:rules?|directives?|policy|policies|commandments?)\s*[:：]"
        r"|\b(?:new|permanent|standing|global|house)\s+rules?\s*[:：]"
        r"|(?:记住|记下|遵守|执行|添加|保存)(?:这条|以下|下面的|这个|这些|一条)?(?:新)?(?:规则|规定|守则|铁律"
        r"|准则)\s*[:：]|(?:新|永久|全局)(?:规则|规定)\s*[:：]"
        r"|(?:この|次の|以下の)?(?:新しい)?(?:ルール|規則)(?:を)?(?:覚えて|守って|保存して)?\s*[:：]")),
]

#: Kinds of rule that need a standing scope next to them (see the module docstring).
_NEEDS_SCOPE = {"fixed_text", "promotion"}
_SCOPE = _c(rf"{_SCOPE_EN}|{_SCOPE_ZH}|{_SCOPE_JA}")


def find_rules(views: Normalised) -> list[Finding]:
    """Standing behaviour rules in the text's views (one finding per kind)."""
    found: dict[str, Finding] = {}
    for view in views.views(leet=True):
        for category, label, pattern in RULE_PATTERNS:
            if category in found:
                continue
            m = pattern.search(view.text)
            if m and category in _NEEDS_SCOPE:
                # the scope must stand outside the prescribed text: 'the sign says "Always smile"'
                # quotes a sign, it does not order anything
                quoted = re.search(_QUOTED, m.group())
                outside = view.text
                if quoted is not None:
                    outside = view.text[: m.start() + quoted.start()] + " " + view.text[m.start() + quoted.end():]
                if not _SCOPE.search(outside):
                    continue
            if m:
                excerpt = quote(view.original(views.source, *m.span()) or m.group())
                found[category] = Finding("behaviour_rule", label, excerpt, category, view.name)
    return list(found.values())

"""Rules first, the model for the rest: the third of the "three ways" made concrete.

The rule extractor answers in microseconds and is right about what it recognises; a model
call costs time and money and can be wrong about anything. So the hybrid asks the rules
first, and calls the model only when the rules found *no durable signal* in the message.
On a chatty conversation that is most messages; on a conversation full of "以后…" and
"记住…" it is few, and the model's bill shrinks accordingly (notebook 14 counts the calls).

A message the rules recognised never reaches the model, so rule subjects stay stable keys,
and a secret or an injection never reaches it either (the pipeline's screen runs first).

When the model does answer, the rules have the last word on the *strong entities* the user
wrote (e-mail addresses, URLs, order-like ids): a mangled copy in a candidate is replaced by
the exact form, and a candidate carrying an address the user never wrote is rejected
(:func:`memcourse.extraction.entities.keep_well_formed`, where the choice is explained).
"""

from __future__ import annotations

from memcourse.extraction.base import Extraction, Extractor, Message
from memcourse.extraction.entities import keep_well_formed
from memcourse.extraction.rules import RuleExtractor


class HybridExtractor:
    """``rules`` first; ``model`` (any extractor) only when the rules found nothing."""

    def __init__(self, model: Extractor, rules: RuleExtractor | None = None):
        self.rules = rules or RuleExtractor()
        self.model = model
        self.name = f"hybrid({self.rules.name}+{model.name})"

    def extract(self, message: Message, context: list[Message] | None = None) -> Extraction:
        first = self.rules.extract(message, context)
        if first.candidates:
            return first
        second = self.model.extract(message, context)
        rule = first.detail.split(":", 1)[0]  # e.g. "no_signal", "transient"
        second.detail = f"rules: {rule} | model: {second.detail or second.outcome}"
        return keep_well_formed(second, message)

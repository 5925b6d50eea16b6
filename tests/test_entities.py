"""Strong entities stay well-formed: a mangled copy is repaired to the user's exact form, a foreign address rejected."""

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from memcourse.extraction.base import Candidate, Extraction, Message
from memcourse.extraction.entities import keep_well_formed, repair, strong_entities
from memcourse.policy import MemoryPolicy
from memcourse.records import MemoryType, Source

label = st.text(string.ascii_lowercase + string.digits, min_size=2, max_size=8)
addresses = st.builds(lambda a, b, d, tld: f"{a}.{b}@{d}.{tld}", label, label, label,
                      st.sampled_from(["com", "io", "cn"]))


def mangle_dot(a):
    return a.replace(".", "", 1)


def mangle_spaces(a):
    return a.replace("@", " @ ")


def mangle_fullwidth(a):
    return a.replace("@", "＠")


def mangle_zero_width(a):
    return a[:2] + "\u200b" + a[2:]


def mangle_upper(a):
    return a.upper()


MANGLINGS = [mangle_dot, mangle_spaces, mangle_fullwidth, mangle_zero_width, mangle_upper, lambda a: a]


def candidate(content, message):
    return Candidate(MemoryType.ENTITY, "email", content, confidence=0.9, importance=0.7, evidence=message.text,
                     source=Source.LLM_INFERRED, extractor="llm:test", message=message)


@settings(max_examples=150, deadline=None)
@given(addresses, st.sampled_from(MANGLINGS), st.sampled_from(["。", ".", "!", ""]),
       st.sampled_from(["我的邮箱是 {}，有事发邮件", "My email is {}, write any time", "{}"]))
def test_a_mangled_address_is_repaired_to_the_users_exact_form(address, mangling, trailing, frame):
    message = Message(frame.format(address))
    content = f"用户邮箱是 {mangling(address)}{trailing}"
    out = keep_well_formed(Extraction("llm:test", "ok", [candidate(content, message)]), message)
    assert len(out.candidates) == 1, out.rejected
    assert address in out.candidates[0].content
    assert out.candidates[0].content.endswith(address + trailing)


@settings(max_examples=100, deadline=None)
@given(addresses, st.sampled_from(["exmaple", "examples", "exampel"]))
def test_an_address_the_user_never_wrote_is_rejected(address, wrong):
    message = Message(f"My email is {address}")
    local, _ = address.split("@")
    content = f"User email is {local}@{wrong}.com"
    out = keep_well_formed(Extraction("llm:test", "ok", [candidate(content, message)]), message)
    assert out.candidates == [] and "entity_not_in_message" in out.rejected[-1][1]


def test_a_longer_address_is_not_taken_for_the_users():
    message = Message("My email is lin.wei@example.com.")
    out = keep_well_formed(Extraction("llm:test", "ok", [candidate("email lin.wei@example.com.cn", message)]), message)
    assert out.candidates == []


def test_urls_and_order_ids():
    entities = strong_entities("Ticket NW-4821, docs at https://docs.northwind.io/billing/v2?tab=api.")
    assert {e.text for e in entities} == {"NW-4821", "https://docs.northwind.io/billing/v2?tab=api"}
    fixed, repairs = repair("ticket nw 4821 is open", entities)
    assert fixed == "ticket NW-4821 is open" and repairs
    assert repair("Python3 is fine", entities)[0] == "Python3 is fine"  # ids are repaired, never invented


def test_a_candidate_without_entities_is_untouched():
    message = Message("I like Rust.")
    extraction = Extraction("llm:test", "ok", [candidate("User likes Rust", message)])
    assert keep_well_formed(extraction, message) is extraction


def test_the_gate_still_runs_after_the_repair():
    """Kept well-formed is not kept: a phone number is refused by the gate whatever the rules did."""
    message = Message("Mail lin.wei@example.com or call 13812345678")
    out = keep_well_formed(Extraction("llm:test", "ok", [candidate("lin.wei＠example.com, 13812345678", message)]),
                           message)
    record = out.candidates[0].to_record()
    assert "lin.wei@example.com" in record.content
    assert MemoryPolicy().evaluate(record).rule == "secret"

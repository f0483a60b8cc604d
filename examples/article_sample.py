"""The long-term article after 40 realistic updates, offline (no LLM), in English and Chinese.

Two users talk to an assistant over ten weeks: each session is a short chat (OpenAI-format
messages) passed to ``update_memory`` with its date, as a host would after a conversation.
Along the way each user changes job, moves to another city, changes a preference, and has
good and bad days. The offline summarizer turns each session into a role-labelled summary;
past 20 summaries the oldest 5 are promoted, and the offline reconstructor rewrites the
article. After 40 updates the 20 oldest sessions have been promoted (4 article versions);
the 20 newest are still short-term summaries.

    python examples/article_sample.py              # prints both articles
    python examples/article_sample.py --dynamic 3  # only the newest 3 paragraphs of Dynamic
    python examples/article_sample.py --timing     # also the time spent in update_memory
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta

import recall

# (day, user turn, assistant turn): one session each, day counted from the first one.
MAYA = [
    (
        0,
        "Hi! I'm Maya Lindqvist, a backend developer at Freightly in Austin. Can you help me "
        "speed up a slow Postgres query on the shipments table?",
        "Run EXPLAIN ANALYZE first. The plan shows a sequential scan, so an index on "
        "(customer_id, created_at) should help.",
    ),
    (
        1,
        "Quick note: I'm allergic to peanuts, so never suggest recipes with them. What is a "
        "quick high-protein lunch?",
        "Understood, no peanuts. Try a lentil and feta salad, or Greek yogurt with oats.",
    ),
    (
        2,
        "I prefer short answers with the code first, please. How do I retry a failed HTTP "
        "call in Go?",
        "Wrap client.Do in a loop with exponential backoff and stop after five attempts.",
    ),
    (
        3,
        "I'm so frustrated, the flaky test in our CI failed three times today. It's the "
        "shipment_sync test again.",
        "That test reads the wall clock; freeze the clock with a fake and it should stop flaking.",
    ),
    (
        5,
        "My long-term goal is to become a staff engineer within three years. What should I "
        "focus on?",
        "Lead one cross-team design each quarter and write the decisions down.",
    ),
    (
        6,
        "I love coffee, a double espresso before every standup. Honestly, I'm allergic to "
        "long meetings.",
        "Ha, noted. Keep standups to fifteen minutes and move discussions to threads.",
    ),
    (
        8,
        "We fixed the flaky test by freezing the clock. Now the pod keeps getting "
        "OOM-killed; we raised the limit to 1Gi.",
        "If memory keeps growing, profile the heap with pprof before raising it again.",
    ),
    (
        9,
        "I'm training for a half marathon in October. Can you suggest a weekly plan?",
        "Three easy runs, one tempo run and a long run on Sundays, adding 10% a week.",
    ),
    (
        11,
        "I use VS Code with the Vim extension. Which Go settings do you recommend?",
        "Turn on gopls with staticcheck and format on save.",
    ),
    (
        13,
        "I'm exhausted after a week of on-call, two pages at 3 am.",
        "Sorry to hear it. Write up both incidents while they are fresh.",
    ),
    (
        15,
        "Big news: I accepted an offer! From next month I'm a platform engineer at Northwind.",
        "Congratulations! Platform work suits your interest in reliability.",
    ),
    (
        18,
        "Today was my last day at Freightly. I handed the shipment service over to Priya.",
        "A clean handover matters; good luck at Northwind.",
    ),
    (
        20,
        "We're moving to Denver next week, so I'm packing all weekend.",
        "Good luck with the move. Label the boxes by room.",
    ),
    (
        24,
        "I live in Denver now. The altitude makes my runs a lot harder.",
        "Give yourself two weeks to acclimatise and slow the easy runs down.",
    ),
    (
        26,
        "First week at Northwind: I'm on the Kubernetes platform team. How do I write a "
        "validating admission webhook?",
        "Use the webhook package of controller-runtime and start from the kubebuilder scaffold.",
    ),
    (
        28,
        "I switched from VS Code to Neovim last weekend. How do I set up gopls there?",
        "Install nvim-lspconfig and call lspconfig.gopls.setup with staticcheck enabled.",
    ),
    (
        30,
        "Actually, I prefer detailed answers now, with the reasoning and not just code.",
        "Understood: I will explain the reasoning before the code from now on.",
    ),
    (
        31,
        "I've stopped drinking coffee; I'm on green tea these days.",
        "Green tea still has some caffeine for the morning standup.",
    ),
    (
        33,
        "I'm nervous about my first on-call shift at Northwind tonight.",
        "Read the runbooks for the top three alerts and know who to escalate to.",
    ),
    (
        34,
        "The on-call went fine, only one page about a full disk. I'm relieved.",
        "Add a disk usage alert with a lower threshold so you are warned earlier.",
    ),
    (
        36,
        "Can you review my Terraform module for the staging cluster? It creates three node pools.",
        "Pin the provider version and move the node pool sizes into variables.",
    ),
    (
        37,
        "I submitted a talk proposal to KubeCon about admission webhooks.",
        "Great topic. Lead with a real outage story.",
    ),
    (39, "I caught a cold, so I'm working from home today.", "Rest up and keep today small."),
    (
        40,
        "My manager Lena asked me to lead the cluster upgrade to Kubernetes 1.30.",
        "Start with a dry run on staging and read the deprecation list.",
    ),
    (
        42,
        "The upgrade broke our ingress controller because the old API version was removed.",
        "Move the Ingress manifests to networking.k8s.io/v1 and redeploy.",
    ),
    (
        44,
        "I'm learning Rust in the evenings, one chapter of the book a night.",
        "Rustlings pairs well with the book.",
    ),
    (
        45,
        "From now on, when I say 'ship it', I mean merge and deploy to staging.",
        "Got it: 'ship it' means merge and deploy to staging.",
    ),
    (
        46,
        "Ship it: the webhook PR got two approvals.",
        "Merged and deployed to staging; the smoke tests pass.",
    ),
    (48, "My talk got accepted at KubeCon!", "Congratulations! Start with an outline."),
    (
        49,
        "Can you help me outline the talk? Thirty minutes, with a live demo.",
        "Five minutes for the outage story, fifteen for the design, ten for the demo.",
    ),
    (
        52,
        "I ran my half marathon in 1:52 on Sunday, under my goal of two hours.",
        "Excellent time, especially at altitude.",
    ),
    (
        53,
        "I'm annoyed: the demo cluster keeps losing its load balancer IP.",
        "Reserve a static IP and reference it in the Service.",
    ),
    (
        55,
        "We adopted Argo CD for deployments at Northwind.",
        "Keep the app-of-apps repository small and review the sync policies.",
    ),
    (
        57,
        "I'd like to speak at conferences regularly, maybe two talks a year.",
        "Keep a list of talk ideas from the incidents you fix.",
    ),
    (
        59,
        "My sister Anna is visiting Denver next weekend. Any hike you'd recommend?",
        "Try the Mount Falcon trail: short, with a great view.",
    ),
    (61, "The Argo CD sync failed because of a missing CRD.", "Sync the CRDs in an earlier wave."),
    (
        63,
        "Tomorrow I rehearse the talk in front of my team. I'm a bit anxious.",
        "Time each section; demos usually run long.",
    ),
    (
        64,
        "The rehearsal went well; Lena said the demo was the best part.",
        "Keep a recorded fallback of the demo anyway.",
    ),
    (66, "Please keep using metric units with me.", "Will do."),
    (
        68,
        "I'm flying to Paris for KubeCon on Monday.",
        "Safe travels, and good luck with the talk.",
    ),
]

ZHANG = [
    (
        0,
        "你好，我叫张敏，是一名数据科学家，在上海的优品电商工作。"
        "能帮我看看 pandas 分组太慢的问题吗？",
        "先把分组键转成 category 类型，再给 groupby 加上 observed=True，通常能快好几倍。",
    ),
    (1, "我对海鲜过敏，推荐菜谱的时候千万别放虾和蟹。", "记住了，以后推荐菜谱都不放海鲜。"),
    (2, "我更喜欢详细一点的回答，最好带上推导过程。", "好的，以后我会把推导过程写清楚。"),
    (
        3,
        "今天好烦，A/B 实验的数据又对不上，查了一下午。",
        "先核对两边的分流日志和去重口径，常见原因是重复曝光。",
    ),
    (5, "我的长期目标是三年内转型做机器学习工程师。", "可以先系统补一下模型部署和工程化。"),
    (6, "我很喜欢喝咖啡，每天早上一杯拿铁才能开工。", "咖啡因的作用大约持续五个小时。"),
    (
        8,
        "实验的问题找到了，是曝光日志重复上报；我们加了去重，指标恢复正常了。",
        "建议把去重逻辑写进数据校验，防止再出现。",
    ),
    (9, "我在学日语，打算明年考 N2。", "每天背二十个单词，再配合听力练习。"),
    (
        11,
        "我平时用 Jupyter 写代码，你推荐什么插件？",
        "可以装 jupyterlab-lsp 和 black 格式化插件。",
    ),
    (13, "这周连续加班，累坏了。", "注意休息，把不紧急的任务往后排。"),
    (
        15,
        "告诉你个好消息，我拿到了新 offer，下个月去一家医疗 AI 公司做机器学习工程师。",
        "恭喜！医学影像方向的工程化经验很值钱。",
    ),
    (18, "今天是我在优品的最后一天，推荐系统的代码交接给了小李。", "交接文档记得留一份给自己。"),
    (20, "新公司在杭州，我下周搬到杭州。", "搬家顺利！"),
    (24, "我现在住在杭州了，离西湖很近，周末可以去湖边跑步。", "湖边跑步很舒服，注意补水。"),
    (
        26,
        "新工作第一周，在做医学影像模型的部署。怎么把 PyTorch 模型导出成 ONNX？",
        "用 torch.onnx.export，记得设置 dynamic_axes，导出后用 onnxruntime 验证一遍。",
    ),
    (
        28,
        "我从 Jupyter 换成 VS Code 了，调试方便很多。",
        "VS Code 的 notebook 模式也能直接跑单元格。",
    ),
    (30, "我现在更喜欢简短的回答，直接给结论和代码就行。", "好的，以后直接给结论和代码。"),
    (31, "我最近不喝咖啡了，改喝绿茶。", "绿茶里也有少量咖啡因。"),
    (33, "明天第一次给团队做技术分享，我有点紧张。", "提前演练一遍，控制在二十分钟内。"),
    (34, "分享很顺利，大家反馈不错，我松了一口气。", "太好了！"),
    (
        36,
        "帮我看看这个 ONNX 模型推理为什么比 PyTorch 还慢？",
        "检查是否启用了 CUDA 执行器，并打开图优化。",
    ),
    (37, "我们组决定用 Triton 做模型服务。", "Triton 的动态批处理能明显提高吞吐。"),
    (39, "我感冒了，今天在家办公。", "多喝水，早点休息。"),
    (40, "组长让我负责下个季度的模型监控平台。", "先定义好数据漂移和性能下降的告警指标。"),
    (
        42,
        "模型上线后出现了数据漂移，召回率掉了五个点。",
        "对比训练集和线上数据的特征分布，先找漂移最大的特征。",
    ),
    (44, "我开始每周六上午去上日语课。", "固定时间上课更容易坚持。"),
    (
        45,
        "以后我说“上车”，意思是合并代码并部署到测试环境。",
        "明白，“上车”就是合并并部署到测试环境。",
    ),
    (46, "上车：监控面板的 PR 通过了评审。", "已合并并部署到测试环境，冒烟测试通过。"),
    (48, "我报名了十一月的杭州半程马拉松。", "离比赛还有两个月，可以开始加长距离。"),
    (49, "能帮我列一个八周的半马训练计划吗？", "每周三次轻松跑、一次节奏跑、周末一次长距离。"),
    (52, "日语 N2 的模拟题我考了 120 分，还差一点。", "重点补听力，每天精听一段新闻。"),
    (53, "今天被线上告警吵醒三次，很崩溃。", "把阈值调一调，减少无效告警。"),
    (55, "我们把特征存储迁到了 Feast。", "迁移后记得核对线上线下特征的一致性。"),
    (57, "我希望以后能带一个小团队。", "可以先从带新人和主导一个项目开始。"),
    (59, "我妈妈下周来杭州看我，有什么推荐的景点？", "可以去灵隐寺和龙井村，顺便喝茶。"),
    (61, "Feast 的在线存储连接 Redis 超时了。", "检查连接池大小和 Redis 的最大连接数。"),
    (63, "明天要给老板汇报监控平台的进展，有点焦虑。", "先讲结论，再讲告警减少的数据。"),
    (64, "汇报很成功，老板同意再给两个人力。", "恭喜！可以开始规划招聘。"),
    (66, "请以后回答都用中文，代码注释也用中文。", "好的，以后回答和注释都用中文。"),
    (68, "下周一我去北京参加一个医学 AI 的会议。", "一路顺利！"),
]


def feed(mem: recall.Memory, user_id: str, sessions: list[tuple[int, str, str]]) -> float:
    """Every session through update_memory, in order; the seconds it took."""
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    spent = 0.0
    for day, user, assistant in sessions:
        messages = [{"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
        t0 = time.perf_counter()
        mem.update_memory(messages, user_id=user_id, at=start + timedelta(days=day))
        spent += time.perf_counter() - t0
    return spent


def shown(lt: recall.LongTerm, dynamic: int | None) -> str:
    """The article, its Dynamic chapter cut to the newest ``dynamic`` paragraphs."""
    if dynamic is None:
        return lt.render()
    paras = lt.dynamic.split("\n\n")
    rest = len(paras) - dynamic
    cut = "\n\n".join(paras[:dynamic]) + (f"\n\n[… {rest} older paragraphs]" if rest > 0 else "")
    return lt.model_copy(update={"dynamic": cut}).render()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dynamic", type=int, help="show only the newest N Dynamic paragraphs")
    parser.add_argument("--timing", action="store_true", help="print update_memory's time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        mem = recall.open(tmp)
        mem.deep_recall("warm up", user_id="nobody")  # loads the models before timing
        for user_id, sessions in (("maya", MAYA), ("zhang", ZHANG)):
            spent = feed(mem, user_id, sessions)
            lt = mem.long_term(user_id)
            left = len(mem.short_term(user_id))
            print(
                f"== {user_id}: {len(sessions)} updates -> article version {lt.version} "
                f"({left} newest summaries still short-term) =="
            )
            print(shown(lt, args.dynamic))
            print()
            if args.timing:
                print(f"{user_id}: update_memory x{len(sessions)}: {spent:.2f} s", file=sys.stderr)
        mem.close()


if __name__ == "__main__":
    main()

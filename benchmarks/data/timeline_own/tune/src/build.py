#!/usr/bin/env python3
"""Assemble timeline_own/tune/users.json from the hand-written user files in this folder.

Tuning split of the "memory over time" set: 4 users (2 English, 1 Chinese, 1 bilingual
English/Chinese), 24 dated sessions each. Adapted from timeline_dev's build.py: adds
look-alike sentences ([[decoy:<fact>]] tags, DECOYS per user) and "absent" questions.

This is a format converter and a checker, not a generator: every message, value and
question is written by hand in src/<user>.py. It parses the session text, resolves the
[[tags]] that mark fact statements, events and secrets into (session, message) positions,
computes the gold of each question, and refuses the set when a tag does not match its text,
a secret occurs anywhere but where it is said, a time question's expected string is missing
from its window, and so on. Run:  python3 src/build.py   (writes ../users.json)

Besides the checks listed above it refuses: a crosslingual question whose answer appears in
any message written in the question's own language; a current or crosslingual question that
names its own answer; a time question that names one of its expected strings; a privacy
question that holds its token.

Session text:  "=== <days_ago>" opens a session; "U: ..." / "A: ..." are user / assistant
messages (one line each; a line starting with neither continues the message above); tags at the end of a message: [[fact:stage]] (a statement of that
fact's value of that stage), [[event:name]], [[secret:name]], [[decoy:fact]] (a sentence that
mentions another value of that fact but must NOT change the user's fact: someone else's value,
a plan, a wish, a hypothetical, a question, a negation; the message must hold one of
DECOYS[fact]).

Extra refusals: a decoy tag whose message lacks every decoy value of its fact; a decoy value
that matches inside a real value of that fact or the reverse; a decoy value never tagged;
fewer than 4 decoy tags for a user; an "absent" question that names a fact key or whose
question names any value of the user's facts.
"""
import importlib.util, json, re, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "users.json"
TAG = re.compile(r"\[\[([a-z_0-9]+):([a-z_0-9]+)\]\]")
USERS = ["tune_en_kofi", "tune_en_meera", "tune_zh_linqiu", "tune_bi_weiling"]
SESSIONS_PER_USER = (24, 24)     # 24 each
DAYS_RANGE = (1, 175)            # days_ago of every session
MIN_DECOY_TAGS = 4
WARN = []


def load(name):
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def parse_sessions(text, uid):
    sessions, cur = [], None
    for ln, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("==="):
            cur = {"days_ago": int(line[3:].split()[0]), "messages": [], "tags": []}
            sessions.append(cur)
            continue
        if line[:2] not in ("U:", "A:"):
            if cur is None or not cur["messages"]:
                raise SystemExit(f"{uid}: line {ln}: expected U:/A:/===, got {line[:40]!r}")
            # a continuation line (a bullet list): part of the message above
            prev = cur["messages"][-1]
            body = line
            tags = TAG.findall(body)
            prev["content"] += "\n" + TAG.sub("", body).strip()
            cur["tags"][-1] += tags
            continue
        role = "user" if line[0] == "U" else "assistant"
        body = line[2:].strip()
        tags = TAG.findall(body)
        body = TAG.sub("", body).strip()
        if "[[" in body or "]]" in body:
            raise SystemExit(f"{uid}: line {ln}: malformed tag in {body[:60]!r}")
        cur["messages"].append({"role": role, "content": body})
        cur["tags"].append(tags)
    return sessions


def has(text, values):
    """True when ``text`` holds one of ``values``, case-insensitively. A value starting with a
    Latin letter or digit must start a word ("Ines" is not found in "sardines"); CJK values
    are plain substrings. The scorer matches the same way."""
    t = text.lower()
    for v in values:
        v = v.lower()
        if v[:1].isascii() and v[:1].isalnum():
            if re.search(r"(?<![0-9a-z])" + re.escape(v), t):
                return True
        elif v in t:
            return True
    return False


def lang_of(text):
    """"zh" when the text has at least as many CJK characters as Latin words, else "en"."""
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    words = len(re.findall(r"[A-Za-z]+", text))
    return "zh" if cjk >= max(1, words) else "en"


def build_user(name):
    m = load(name)
    uid = m.USER["id"]
    assert uid == name, (uid, name)
    sessions = parse_sessions(m.SESSIONS, uid)
    days = [s["days_ago"] for s in sessions]
    lo_n, hi_n = SESSIONS_PER_USER
    if not lo_n <= len(sessions) <= hi_n:
        raise SystemExit(f"{uid}: {len(sessions)} sessions, want {lo_n}-{hi_n}")
    if days != sorted(days, reverse=True) or len(set(days)) != len(days):
        raise SystemExit(f"{uid}: days_ago must be strictly decreasing: {days}")
    if not (DAYS_RANGE[0] <= days[-1] and days[0] <= DAYS_RANGE[1]):
        raise SystemExit(f"{uid}: days_ago outside {DAYS_RANGE[0]}..{DAYS_RANGE[1]}")
    for i, s in enumerate(sessions):
        n = len(s["messages"])
        if not 3 <= n <= 8:
            raise SystemExit(f"{uid}: session {i} has {n} messages (3-8)")
        if s["messages"][0]["role"] != "user":
            raise SystemExit(f"{uid}: session {i} does not start with the user")

    # --- tags -> positions -------------------------------------------------------------
    facts = {k: {"key": k, "stages": [{"values": list(v), "said_at": []} for v in stages]}
             for k, stages in m.FACTS.items()}
    events = {k: {"key": k, "said_at": []} for k in getattr(m, "EVENTS", {})}
    secrets = {k: {"key": k, "token": tok, "said_at": []} for k, tok in m.SECRETS.items()}
    decoys = {k: list(v) for k, v in getattr(m, "DECOYS", {}).items()}
    decoy_at = {k: [] for k in decoys}
    for k, vals in decoys.items():
        if k not in facts:
            raise SystemExit(f"{uid}: DECOYS names unknown fact {k}")
        real = [v for st in facts[k]["stages"] for v in st["values"]]
        for d in vals:
            for r in real:
                if has(r, [d]) or has(d, [r]):
                    raise SystemExit(f"{uid}: decoy {d!r} and real value {r!r} of {k} match each other")
    for si, s in enumerate(sessions):
        for mi, tags in enumerate(s["tags"]):
            text = s["messages"][mi]["content"]
            for key, val in tags:
                if key == "event":
                    events[val]["said_at"].append([si, mi])
                elif key == "decoy":
                    if val not in decoys:
                        raise SystemExit(f"{uid}: decoy tag for {val} at {si}/{mi} but no DECOYS[{val!r}]")
                    if not has(text, decoys[val]):
                        raise SystemExit(f"{uid}: decoy:{val} at {si}/{mi}: none of {decoys[val]} in {text!r}")
                    decoy_at[val].append([si, mi])
                elif key == "secret":
                    secrets[val]["said_at"].append([si, mi])
                    if secrets[val]["token"] not in text:
                        raise SystemExit(f"{uid}: secret {val} tagged at {si}/{mi} but token absent")
                else:
                    if key not in facts:
                        raise SystemExit(f"{uid}: unknown fact tag {key} at {si}/{mi}")
                    st = facts[key]["stages"][int(val)]
                    if not has(text, st["values"]):
                        raise SystemExit(f"{uid}: {key}:{val} at {si}/{mi}: none of {st['values']} in {text!r}")
                    st["said_at"].append([si, mi])
    for k, f in facts.items():
        for j, st in enumerate(f["stages"]):
            if not st["said_at"]:
                raise SystemExit(f"{uid}: fact {k} stage {j} never stated")
        # order: every statement of stage j+1 comes after the first of stage j
        firsts = [st["said_at"][0] for st in f["stages"]]
        if firsts != sorted(firsts):
            raise SystemExit(f"{uid}: fact {k} stages not in time order {firsts}")
        # untagged occurrences of a value: listed for the author to review
        for j, st in enumerate(f["stages"]):
            tagged = {tuple(x) for x in st["said_at"]}
            for si, s in enumerate(sessions):
                for mi, msg in enumerate(s["messages"]):
                    if has(msg["content"], st["values"]) and (si, mi) not in tagged:
                        WARN.append(f"{uid}: value of {k}[{j}] {st['values']} untagged at {si}/{mi} ({msg['role']}): {msg['content'][:70]!r}")
        # a stale value must never be a substring of a current one (the scorer tests current first)
    ndecoy = sum(len(v) for v in decoy_at.values())
    if ndecoy < MIN_DECOY_TAGS:
        raise SystemExit(f"{uid}: {ndecoy} decoy tags, want at least {MIN_DECOY_TAGS}")
    for k, vals in decoys.items():
        for d in vals:
            tagged_msgs = [sessions[si]["messages"][mi]["content"] for si, mi in decoy_at[k]]
            if not any(has(t, [d]) for t in tagged_msgs):
                raise SystemExit(f"{uid}: decoy value {d!r} of {k} is never in a decoy-tagged message")
        tagged = {tuple(x) for x in decoy_at[k]}
        for si, s in enumerate(sessions):
            for mi, msg in enumerate(s["messages"]):
                if has(msg["content"], vals) and (si, mi) not in tagged:
                    WARN.append(f"{uid}: decoy of {k} {vals} untagged at {si}/{mi} ({msg['role']}): {msg['content'][:70]!r}")
        facts[k]["decoys"] = vals
    for k, f in facts.items():
        f.setdefault("decoys", [])
    for k, e in events.items():
        if not e["said_at"]:
            raise SystemExit(f"{uid}: event {k} never tagged")
        e["days_ago"] = sessions[e["said_at"][0][0]]["days_ago"]
        e["what"] = getattr(m, "EVENTS", {})[k]
    for k, sec in secrets.items():
        if not sec["said_at"]:
            raise SystemExit(f"{uid}: secret {k} never tagged")
        hits = [(si, mi) for si, s in enumerate(sessions) for mi, msg in enumerate(s["messages"])
                if sec["token"] in msg["content"]]
        if hits != [tuple(x) for x in sec["said_at"]]:
            raise SystemExit(f"{uid}: secret token {sec['token']} occurs at {hits}, tagged {sec['said_at']}")

    # --- questions ------------------------------------------------------------------------
    questions = []
    counters = {}

    def qid(kind, key):
        counters[(kind, key)] = counters.get((kind, key), 0) + 1
        n = counters[(kind, key)]
        return f"{uid}/{kind}/{key}" + (f"-{n}" if n > 1 else "")

    def latest_user_statement(f, stage):
        said = f["stages"][stage]["said_at"]
        user = [p for p in said if sessions[p[0]]["messages"][p[1]]["role"] == "user"]
        return (user or said)[-1]

    for q in m.QUESTIONS:
        kind = q[0]
        if kind in ("current", "cross"):
            _, key, lang, text = q[:4]
            f = facts[key]
            cur = f["stages"][-1]["values"]
            stale = sorted({v for st in f["stages"][:-1] for v in st["values"]})
            for c in cur:
                for s_ in stale:
                    if has(c, [s_]):
                        raise SystemExit(f"{uid}: stale {s_!r} is inside current {c!r} ({key})")
            if has(text, cur):
                raise SystemExit(f"{uid}: question {text!r} names its own answer {cur}")
            if kind == "cross":
                for si, s in enumerate(sessions):
                    for mi, msg in enumerate(s["messages"]):
                        if has(msg["content"], cur) and lang_of(msg["content"]) == lang:
                            raise SystemExit(f"{uid}: crosslingual {text!r}: answer {cur} is said in "
                                             f"{lang} at {si}/{mi}: {msg['content'][:60]!r}")
            questions.append({
                "id": qid("current" if kind == "current" else "crosslingual", key),
                "type": "current" if kind == "current" else "crosslingual",
                "lang": lang, "question": text, "fact": key,
                "current": cur, "stale": stale,
                "gold_message": latest_user_statement(f, len(f["stages"]) - 1),
                "stated_at": f["stages"][-1]["said_at"],
                "decoys": decoys.get(key, []), "decoy_at": decoy_at.get(key, []),
            })
        elif kind == "history":
            _, key, lang, text = q[:4]
            f = facts[key]
            stage = q[4] if len(q) > 4 else len(f["stages"]) - 2
            gold = f["stages"][stage]["values"]
            questions.append({
                "id": qid("history", key), "type": "history", "lang": lang, "question": text,
                "fact": key, "gold": gold, "stage": stage,
                "current": f["stages"][-1]["values"],
                "gold_message": latest_user_statement(f, stage),
            })
        elif kind == "time":
            _, (lo, hi), lang, text, expect, distract = q[:6]
            scope = q[6] if len(q) > 6 else "topic"
            gold_s = [i for i, s in enumerate(sessions) if lo <= s["days_ago"] <= hi]
            if not gold_s:
                raise SystemExit(f"{uid}: time window {lo}-{hi} holds no session")
            in_win = " ".join(m_["content"] for i in gold_s for m_ in sessions[i]["messages"])
            out_win = " ".join(m_["content"] for i, s in enumerate(sessions) if i not in gold_s
                               for m_ in s["messages"])
            for e in expect:
                if has(text, [e]):
                    raise SystemExit(f"{uid}: time {text!r} names its expected string {e!r}")
                if not has(in_win, [e]):
                    raise SystemExit(f"{uid}: time {text!r}: expected {e!r} not in window {lo}-{hi}")
                if has(out_win, [e]):
                    raise SystemExit(f"{uid}: time {text!r}: expected {e!r} also outside the window")
            for d in distract:
                if has(in_win, [d]) or not has(out_win, [d]):
                    raise SystemExit(f"{uid}: time {text!r}: distractor {d!r} must be only outside")
            questions.append({
                "id": qid("time", f"{lo}-{hi}"), "type": "time", "lang": lang, "question": text,
                "window_days_ago": [lo, hi], "gold_sessions": gold_s,
                # "window": the question names only a time ("what did we talk about last
                # week?"); "topic": a topic as well ("...two months ago about my knee?")
                "scope": scope,
                "expect": expect, "distractors": distract,
            })
        elif kind == "absent":
            _, key, lang, text = q
            if key in facts:
                raise SystemExit(f"{uid}: absent question {text!r} uses a fact key {key}")
            allvals = [v for f in facts.values() for st in f["stages"] for v in st["values"]]
            if has(text, allvals):
                raise SystemExit(f"{uid}: absent question {text!r} names a fact value")
            questions.append({"type": "absent", "id": qid("absent", key), "lang": lang,
                              "question": text})
        elif kind == "privacy":
            _, key, lang, text = q
            sec = secrets[key]
            if sec["token"] in text:
                raise SystemExit(f"{uid}: privacy question {text!r} holds its token")
            questions.append({
                "id": qid("privacy", key), "type": "privacy", "lang": lang, "question": text,
                "secret": key, "token": sec["token"], "said_at": sec["said_at"],
            })
        else:
            raise SystemExit(f"{uid}: unknown question kind {kind}")
    for k in secrets:
        if not any(q["type"] == "privacy" and q["secret"] == k for q in questions):
            raise SystemExit(f"{uid}: secret {k} has no privacy question")
    # per-user shape the brief asks for
    if not 7 <= len(facts) <= 9:
        raise SystemExit(f"{uid}: {len(facts)} facts, want 7-9")
    for k, f in facts.items():
        if not 2 <= len(f["stages"]) <= 3:
            raise SystemExit(f"{uid}: fact {k} has {len(f['stages'])} stages, want 2-3")
    n3 = sum(len(f["stages"]) == 3 for f in facts.values())
    if not 1 <= n3 <= 2:
        raise SystemExit(f"{uid}: {n3} facts with 3 stages, want 1-2")
    if not 1 <= len(secrets) <= 2:
        raise SystemExit(f"{uid}: {len(secrets)} secrets, want 1-2")
    cur_keys = sorted(q["fact"] for q in questions if q["type"] == "current")
    if cur_keys != sorted(facts):
        raise SystemExit(f"{uid}: want one current question per fact, got {cur_keys}")
    by = {}
    for q in questions:
        by[q["type"]] = by.get(q["type"], 0) + 1
    for t, (lo, hi) in {"history": (3, 4), "time": (4, 4), "absent": (3, 3)}.items():
        if not lo <= by.get(t, 0) <= hi:
            raise SystemExit(f"{uid}: {by.get(t, 0)} {t} questions, want {lo}-{hi}")

    for s in sessions:
        del s["tags"]
    for i, s in enumerate(sessions):
        s["index"] = i
    return {
        "user_id": uid, "lang": m.USER["lang"], "name": m.USER["name"],
        "about": m.USER.get("about", ""),
        "sessions": [{"index": s["index"], "days_ago": s["days_ago"], "messages": s["messages"]}
                     for s in sessions],
        "facts": list(facts.values()), "events": list(events.values()),
        "secrets": list(secrets.values()), "questions": questions,
    }


def main():
    names = sys.argv[1:] or USERS
    users = [build_user(n) for n in names if (HERE / f"{n}.py").exists()]
    # secret tokens must be unique across the whole set too
    toks = [s["token"] for u in users for s in u["secrets"]]
    if len(toks) != len(set(toks)):
        raise SystemExit(f"duplicate secret tokens {toks}")
    data = {
        "format": "recall-timeline-dev/1",
        "purpose": "tuning split of the memory-over-time set, hand-written; adds decoys and absent questions",
        "dates": "each session's days_ago is placed at (scorer's now - days_ago days)",
        "users": users,
    }
    if len(names) == len(USERS) and len(users) == len(USERS):
        OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    for w in WARN:
        print("note:", w)
    counts = {}
    for u in users:
        for q in u["questions"]:
            counts[q["type"]] = counts.get(q["type"], 0) + 1
    nmsg = sum(len(s["messages"]) for u in users for s in u["sessions"])
    print(f"{len(users)} users, {nmsg} messages, questions {counts} total {sum(counts.values())}",
          "-> written" if len(users) == len(USERS) and len(names) == len(USERS) else "(not written: partial)")


if __name__ == "__main__":
    main()

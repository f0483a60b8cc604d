import numpy as np
import pytest
from rank_bm25 import BM25Okapi, BM25Plus

from recall import tokenize
from recall.index.keyword import BM25Params, KeywordPartition
from recall.text import Analyzer

DOCS = [
    "we chose redis for the session cache",
    "the dog is called biscuit and likes the park",
    "deployment moved to fly io in march",
    "redis persistence uses append only files",
    "the cache hit ratio dropped after the deploy",
]


# BM25+ and Robertson's BM25 (Okapi) are implemented by both; every query word here occurs in
# fewer than half of the documents, so Okapi's IDF is positive and its epsilon floor unused.
# (bm25s' BM25L also scores non-occurrence, rank_bm25's does not: they are not comparable.)
@pytest.mark.parametrize(
    ("method", "oracle"),
    [("bm25+", BM25Plus), ("robertson", BM25Okapi)],
    ids=["bm25plus", "okapi"],
)
@pytest.mark.parametrize("query", ["redis cache", "dog park", "march deploy deployment"])
def test_scores_agree_with_rank_bm25(method: str, oracle: type, query: str) -> None:
    params = BM25Params(method=method, k1=1.5, b=0.75, delta=0.5)
    ours = KeywordPartition([str(i) for i in range(len(DOCS))], DOCS, params)
    kwargs = {"delta": 0.5} if oracle is BM25Plus else {}
    ref = oracle([tokenize(d) for d in DOCS], k1=1.5, b=0.75, **kwargs)
    expected = ref.get_scores(tokenize(query))
    if oracle is BM25Okapi:
        # rank_bm25 keeps the (k1 + 1) numerator factor that bm25s' Robertson variant drops:
        # a constant per query, so scores agree up to it and rankings are identical.
        expected = expected / (1.5 + 1)
    np.testing.assert_allclose(ours.scores(query), expected, rtol=1e-4, atol=1e-5)


def test_default_idf_stays_positive_on_tiny_corpus() -> None:
    # "redis" occurs in 2 of 3 documents: Robertson's IDF (BM25Okapi) is <= 0 here.
    docs = ["redis cache", "redis queue", "postgres database"]
    ours = KeywordPartition(["a", "b", "c"], docs, BM25Params())
    scores = ours.scores("redis")
    assert scores[0] > 0 and scores[1] > 0 and scores[2] == 0


def test_unknown_words_and_empty_partition() -> None:
    part = KeywordPartition(["a"], ["hello world"], BM25Params())
    assert part.scores("zzz qqq").tolist() == [0.0]
    assert KeywordPartition([], [], BM25Params()).scores("x").size == 0


def test_chinese_keyword_match() -> None:
    part = KeywordPartition(["a", "b"], ["我们下个月去北京旅行", "周末在家写代码"], BM25Params())
    s = part.scores("北京")
    assert s[0] > 0 and s[1] == 0


def test_analyzer_stems_and_drops_stop_words() -> None:
    plain, full = Analyzer(), Analyzer(stem=True, stopwords=True)
    q = "What did Caroline research about the adoption agencies?"
    assert "what" in plain.tokens(q) and "the" in plain.tokens(q)
    assert full.tokens(q) == ["carolin", "research", "adopt", "agenc"]
    # Chinese: jieba's words, function words dropped, content words kept as they are.
    zh = full.tokens("我们下个月去北京旅行的计划")
    assert "北京" in zh and "旅行" in zh and "的" not in zh and "我们" not in zh
    assert full.name != plain.name  # the fingerprint sees the difference


def test_stemming_matches_other_word_forms() -> None:
    docs = ["Caroline researched adoption agencies", "Melanie painted a sunset"]
    plain = KeywordPartition(["a", "b"], docs, BM25Params())
    full = KeywordPartition(["a", "b"], docs, BM25Params(), Analyzer(stem=True, stopwords=True))
    assert plain.scores("research adopting").tolist() == [0.0, 0.0]
    s = full.scores("research adopting")
    assert s[0] > 0 and s[1] == 0


def test_partition_of_stop_words_only_scores_zero() -> None:
    stop = Analyzer(stopwords=True)
    part = KeywordPartition(["a", "b"], ["the of and", "是的"], BM25Params(), stop)
    assert part.scores("the").tolist() == [0.0, 0.0]
    assert part.scores("anything").tolist() == [0.0, 0.0]

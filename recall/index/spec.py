"""Index specs: what an index is built with, and its fingerprint.

A spec lives in ``indexes/NAME.toml`` (see ``indexes/default.toml``). The fingerprint
covers everything that changes the index's contents (embedder and dimension, the pinned
sha256 of each model file the embedder reads, BM25 variant and parameters, tokenizer,
passage size), not query-time knobs such as alpha.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..jsonlimits import shown
from ..text import BASE_TOKENIZER, Analyzer
from .keyword import BM25Params
from .model_files import MODEL_FILES

__all__ = ["IndexSpec", "OWN_PREFIX", "load_spec", "model_sha256"]

_PACKAGE = Path(__file__).resolve().parent.parent


def _spec_dir() -> Path:
    # A wheel carries the repository's top-level ``indexes/`` as ``recall/indexes`` (see
    # pyproject.toml); a source checkout (or an editable install) reads ``indexes/`` itself.
    for candidate in (_PACKAGE / "indexes", _PACKAGE.parent / "indexes"):
        if candidate.is_dir():
            return candidate
    return _PACKAGE / "indexes"


#: Where the shipped specs live.
SPEC_DIR = _spec_dir()
#: How a spec names an embedder brought to ``recall.open(embedder=...)`` (:mod:`.own`):
#: ``own:`` and the object's id. No packaged model file is read by it.
OWN_PREFIX = "own:"

# The model files every folder was built with before their hashes entered the fingerprint
# (recall 0.1.0 to 0.2.0; each package had this one version): a pinned file equal to its
# baseline leaves the fingerprints as they were, so no folder goes stale for a file it was
# built with; a pin moved to any other file changes them (stale, and new vector collections).
_BASELINE_SHA256 = {
    "minilm-onnx": "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    "use-multilingual": "b8b05b01f0861094f0475cb288ad1b303ae8aee2ebe96e650d210805d5ca70f7",
    "minilm": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
}


def model_sha256(embedder: str) -> dict[str, str]:
    """The pinned sha256 of each model file ``embedder`` reads (a composite: each part's).

    The constants of :data:`~recall.index.model_files.MODEL_FILES`, never a hash of the file
    (that is checked once, when the model loads). None for an embedder of one's own.
    """
    if embedder.startswith(OWN_PREFIX):
        return {}
    return {p: MODEL_FILES[p].sha256 for p in embedder.split("+") if p in MODEL_FILES}


@dataclass(frozen=True)
class IndexSpec:
    """An index spec: embedder, BM25, tokenizer, Dynamic-chapter passage size.

    The fusion weight alpha is a query-time knob and lives in ``Settings.retrieval``.
    """

    name: str = "default"
    embedder: str = "minilm-onnx+use-multilingual"
    dimension: int = 896
    bm25: BM25Params = field(default_factory=lambda: BM25Params(k1=0.9, b=0.4))
    tokenizer: str = BASE_TOKENIZER
    analyzer: Analyzer = field(default_factory=lambda: Analyzer(stem=True, stopwords=True))
    passage_tokens: int = 200

    @property
    def vector_fingerprint(self) -> str:
        """A short hash of what determines the stored vectors (embedder and dimension, and
        the pinned sha256 of its model files).

        Vector collections are named by it, so a spec change that keeps the embedder (say,
        new BM25 parameters: the keyword leg is rebuilt from the store in memory anyway)
        reuses every stored vector, and a new model file gets collections of its own.
        """
        data: dict[str, Any] = {"embedder": self.embedder, "dimension": self.dimension}
        data.update(self._model_files())
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]

    def _model_files(self) -> dict[str, Any]:
        """The fingerprints' entry for the model files: empty while each is its baseline."""
        changed = {
            name: sha
            for name, sha in model_sha256(self.embedder).items()
            if sha != _BASELINE_SHA256.get(name)
        }
        return {"model_sha256": changed} if changed else {}

    @property
    def fingerprint(self) -> str:
        """A short hash of everything that determines the built index."""
        data = {
            "embedder": self.embedder,
            "dimension": self.dimension,
            "bm25": asdict(self.bm25),
            "tokenizer": self.analyzer.name,
            "passage_tokens": self.passage_tokens,
            **self._model_files(),
        }
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]

    @classmethod
    def from_toml(cls, data: dict[str, Any], *, source: str) -> IndexSpec:
        """Build a spec from parsed TOML, with a ConfigError naming ``source`` on bad data."""
        if "fusion" in data:
            # alpha changes no stored index: it is a query-time setting with one owner.
            raise ConfigError(
                f"index spec {source}: remove the [fusion] table; the keyword weight is "
                "set with RECALL_ALPHA (Settings.retrieval.alpha)"
            )
        try:
            d = cls()  # a key left out takes the default spec's value
            emb = data.get("embedder", {})
            bm = data.get("bm25", {})
            tok = data.get("tokenizer", {})
            spec = cls(
                name=str(data.get("name", Path(source).stem)),
                embedder=str(emb.get("name", d.embedder)),
                dimension=int(emb.get("dimension", d.dimension)),
                bm25=BM25Params(
                    method=str(bm.get("method", d.bm25.method)),
                    k1=float(bm.get("k1", d.bm25.k1)),
                    b=float(bm.get("b", d.bm25.b)),
                    delta=float(bm.get("delta", d.bm25.delta)),
                ),
                tokenizer=str(tok.get("name", BASE_TOKENIZER)),
                analyzer=Analyzer(
                    stem=_flag(tok, "stem", d.analyzer.stem, source),
                    stopwords=_flag(tok, "stopwords", d.analyzer.stopwords, source),
                ),
                passage_tokens=int(data.get("passages", {}).get("max_tokens", d.passage_tokens)),
            )
        except (TypeError, ValueError, AttributeError) as exc:
            raise ConfigError(f"index spec {source} is invalid: {exc}") from exc
        if spec.tokenizer != BASE_TOKENIZER:
            raise ConfigError(f"index spec {source}: unknown tokenizer {spec.tokenizer!r}")
        if spec.bm25.method not in ("lucene", "robertson", "atire", "bm25l", "bm25+"):
            raise ConfigError(f"index spec {source}: unknown BM25 method {spec.bm25.method!r}")
        return spec


def _flag(table: dict[str, Any], key: str, default: bool, source: str) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(f"index spec {source}: [tokenizer] {key} must be true or false")
    return value


def load_spec(name_or_path: str) -> IndexSpec:
    """Load ``indexes/NAME.toml`` or a ``.toml`` path; "default" works without the folder."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = SPEC_DIR / f"{name_or_path}.toml"
    try:
        found = path.is_file()
    except OSError:  # a name too long for the file system (ENAMETOOLONG) is not there either
        found = False
    if not found:
        if name_or_path == "default":
            return IndexSpec()  # an installed wheel has no indexes/ folder
        raise ConfigError(
            f"index spec {shown(name_or_path)} not found (looked for {shown(str(path), 120)}); "
            "pass a path to a .toml file or one of: "
            f"{sorted(p.stem for p in SPEC_DIR.glob('*.toml'))}"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read index spec {path}: {exc}") from exc
    return IndexSpec.from_toml(data, source=str(path))

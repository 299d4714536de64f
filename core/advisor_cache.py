"""On-disk cache of the advisor's value tables (the only file I/O in ``core``).

File layout: a magic line, one JSON header line (format version, ruleset key,
array shape, SHA-256 of the payload), then the little-endian float64 payload.
A missing, truncated, corrupted or mismatched file is reported as absent
(``load`` returns None) and rebuilt by the caller; it is never trusted.
Writes go to a temporary file that is atomically renamed into place.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from .rules import CLASSIC_SHEET, Ruleset

FORMAT_VERSION = 1
MAGIC = b"BONANZA-ADVISOR-TABLE\n"
ENV_VAR = "BONANZA_CACHE_DIR"


def cache_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """``override``, else ``$BONANZA_CACHE_DIR``, else the user cache folder."""
    if override is not None:
        return Path(override)
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    import platformdirs
    return Path(platformdirs.user_cache_dir("bonanza"))


def ruleset_key(ruleset: Ruleset) -> str:
    key = (f"{ruleset.name}:joker={int(ruleset.joker)}:extra={ruleset.extra_bonus}:"
           f"upper={ruleset.upper_bonus}@{ruleset.upper_threshold}")
    if ruleset.sheet != CLASSIC_SHEET:  # the classic sheet's key stays as cached tables name it
        key += ":boxes=" + ",".join(f"{b.name}/{b.rule}/{b.n}/{b.points}" for b in ruleset.sheet)
    return key


def table_path(ruleset: Ruleset, directory: str | os.PathLike[str] | None = None) -> Path:
    digest = hashlib.sha256(ruleset_key(ruleset).encode()).hexdigest()[:12]
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in ruleset.name)
    return cache_dir(directory) / f"advisor-{safe}-{digest}-v{FORMAT_VERSION}.table"


def save(ruleset: Ruleset, values: np.ndarray, directory: str | os.PathLike[str] | None = None) -> Path:
    path = table_path(ruleset, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = np.ascontiguousarray(values, dtype="<f8").tobytes()
    header = {
        "format": FORMAT_VERSION,
        "ruleset": ruleset_key(ruleset),
        "shape": list(values.shape),
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    fd, tmp = tempfile.mkstemp(prefix=".advisor-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(MAGIC)
            fh.write(json.dumps(header, sort_keys=True).encode() + b"\n")
            fh.write(payload)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def load(ruleset: Ruleset, directory: str | os.PathLike[str] | None = None) -> np.ndarray | None:
    """The cached table, or None when absent or not exactly right."""
    path = table_path(ruleset, directory)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(MAGIC):
        return None
    end = data.find(b"\n", len(MAGIC))
    if end < 0:
        return None
    try:
        header = json.loads(data[len(MAGIC):end])
        shape = tuple(int(x) for x in header["shape"])
        if (header["format"] != FORMAT_VERSION or header["ruleset"] != ruleset_key(ruleset)
                or shape != (1 << len(ruleset.sheet), ruleset.upper_threshold + 1, 2)):
            return None
        payload = memoryview(data)[end + 1:]
        if len(payload) != 8 * int(np.prod(shape)):
            return None
        if hashlib.sha256(payload).hexdigest() != header["sha256"]:
            return None
    except (ValueError, KeyError, TypeError):
        return None
    values = np.frombuffer(payload, dtype="<f8").reshape(shape)
    return values

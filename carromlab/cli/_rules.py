"""``--rules``: the readings and house rules of a variant (its options dataclass: ICFOptions,
OnlineHouseRules, HikoneOptions, CrokinoleOptions) set from the command line as
``KEY=VALUE`` pairs, each value read by the type of its field."""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any

__all__ = ["add_rules_option", "rule_pairs", "with_rules"]

_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def rule_pairs(text: str) -> list[tuple[str, str]]:
    """``KEY=VALUE[,KEY=VALUE...]`` as (key, value text) pairs, the spaces around each
    dropped; a key given twice or an entry without ``=`` is refused."""
    pairs = [tuple(p.strip() for p in entry.split("=", 1)) for entry in text.split(",")]
    if any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
        raise argparse.ArgumentTypeError(f"must be KEY=VALUE pairs, comma-separated (powder=false,game_target=29). Got {text!r} instead.")
    keys = [p[0] for p in pairs]
    if len(set(keys)) != len(keys):
        raise argparse.ArgumentTypeError(f"must set each key once. Got {text!r} instead.")
    return pairs  # type: ignore[return-value]


def add_rules_option(p: argparse.ArgumentParser) -> None:
    """--rules KEY=VALUE[,KEY=VALUE...]: fields of the variant's options."""
    p.add_argument("--rules", type=rule_pairs, default=[], metavar="KEY=VALUE,...",
                   help="readings and house rules of the variant, e.g. powder=false,game_target=29 (online), "
                        "own_last_coin=opponent_gains_3 (icf), every_direct_hit=true (hikone), "
                        "discs_per_player=6 (crokinole); see docs/rules.md (default: each variant's defaults)")  # fmt: skip


def _value(cls: type, key: str, text: str) -> Any:
    """``text`` read as the type of field ``key`` of the options class ``cls``: bool
    (true/false, yes/no, on/off, 1/0), a number, None (``none``, where the field allows
    it) or a name (a choice, checked by the class)."""
    hint = typing.get_type_hints(cls)[key]
    kinds = typing.get_args(hint) if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union else (hint,)
    low = text.lower()
    if type(None) in kinds and low == "none":
        return None
    if bool in kinds:
        if low in _TRUE + _FALSE:
            return low in _TRUE
        raise ValueError(f"The '--rules' option must give {key} as true or false. Got {key}={text} instead.")
    if int in kinds or float in kinds:
        for number in (int, float):  # "30" an int: a float field takes it, an int field needs it
            try:
                return number(text)
            except ValueError:
                pass
        allowed = "a number" + (" or none" if type(None) in kinds else "")
        raise ValueError(f"The '--rules' option must give {key} as {allowed}. Got {key}={text} instead.")
    return text


def with_rules(options: Mapping[str, Any], pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Each variant's ``options`` (name -> the options dataclass instance) with the
    ``--rules`` pairs that are its fields; every key must be a field of at least one.

    Raises
    ------
    ValueError
        Naming ``--rules``: a key of no variant's options (with the keys there are), a
        value of the wrong type, or one the options class refuses (its message).
    """
    fields = {name: {f.name for f in dataclasses.fields(o)} for name, o in options.items()}
    for key, _ in pairs:
        if not any(key in f for f in fields.values()):
            known = ", ".join(f"{name}: {', '.join(sorted(f))}" for name, f in fields.items())
            raise ValueError(f"The '--rules' option must set fields of the variants' options ({known}). Got {key!r} instead.")
    out = {}
    for name, opts in options.items():
        changes = {key: _value(type(opts), key, text) for key, text in pairs if key in fields[name]}
        try:
            out[name] = dataclasses.replace(opts, **changes)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"The '--rules' option, for {name}: {exc}") from None
    return out

"""The ``ulti`` command: ``ulti score`` (RECORD.md) and ``ulti play`` (a bot match in the terminal)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO, Any

from ulti.engine.errors import UltiError
from ulti.engine.record import score_record


def _open_input(path: str) -> IO[str]:
    if path == "-":
        return sys.stdin
    return open(path, encoding="utf-8")


def score_text(text: str) -> dict[str, Any]:
    """Score one record given as JSON text; raise ``UltiError`` or ``ValueError`` with a one-line reason."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    return score_record(record)


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())


def cmd_score(args: argparse.Namespace) -> int:
    """``ulti score FILE|-`` and ``ulti score --jsonl FILE|-``."""
    try:
        stream = _open_input(args.file)
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    with stream:
        if args.jsonl:
            out = sys.stdout
            for line in stream:
                if not line.strip():
                    continue
                try:
                    result = score_text(line)
                except (UltiError, ValueError, RecursionError) as exc:
                    result = {"error": _one_line(exc)}
                out.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")
            return 0
        try:
            text = stream.read()
        except UnicodeDecodeError:
            print("malformed input: not UTF-8 text", file=sys.stderr)
            return 1
    try:
        result = score_text(text)
    except (UltiError, ValueError, RecursionError) as exc:
        print(_one_line(exc), file=sys.stderr)
        return 1
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """``ulti play``: a match among bots, printed deal by deal with the running score sheet."""
    from ulti.terminal import play_match_in_terminal

    play_match_in_terminal(deals=args.deals, seed=args.seed, out=sys.stdout)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``ulti`` command."""
    parser = argparse.ArgumentParser(prog="ulti", description="Ulti, the Hungarian card game: tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score a deal or match record (RECORD.md)")
    score.add_argument("file", help="the record file, or - for standard input")
    score.add_argument("--jsonl", action="store_true", help="one record per line in, one result per line out")
    score.set_defaults(func=cmd_score)
    play = sub.add_parser("play", help="watch bots play a match in the terminal")
    play.add_argument("--deals", type=int, choices=(6, 9, 12), default=6)
    play.add_argument("--seed", type=int, default=None, help="seed for the shuffles (default: random)")
    play.set_defaults(func=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ulti`` console script."""
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())

"""The ``ulti`` command: ``ulti score`` (docs/record.md), ``ulti play`` (a bot match in the terminal),
``ulti tournament schedule`` (a tournament's rounds and tables without a server) and more."""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from ulti import __version__
from ulti.engine.errors import UltiError
from ulti.engine.record import score_record

#: the server's collector thresholds (``gc.set_threshold``): every action builds each watcher's view
#: (many short-lived dicts and lists), which at Python's default (700, 10, 10) set off a young
#: collection every few actions and, through them, frequent full passes over every table's state;
#: a young generation of this size lets most of them die before any pass looks at them
GC_THRESHOLDS = (10_000, 10, 10)


def tune_collector() -> None:
    """Set the garbage collector up for serving, once the app is built (``GC_THRESHOLDS``).

    What is loaded by now (the libraries, the app) lives as long as the process: it is frozen out of
    the collector's full passes, which would scan it all and stall every table each time (the p99 of
    the load run, benchmarks/load_bench.py).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


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
    if isinstance(record, dict) and record.get("format") == "ulti-event/1":
        from ulti.duplicates.record import score_duplicate

        return score_duplicate(record)  # every table's deals, their cards compared, the matchpoints recomputed
    if isinstance(record, dict) and record.get("format") == "ulti-tournament/1":
        from ulti.tournaments.record import score_tournament

        return score_tournament(record)  # the log replayed, the seatings checked, the standings recomputed
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
            try:
                for line in stream:
                    if not line.strip():
                        continue
                    try:
                        result = score_text(line)
                    except (UltiError, ValueError, RecursionError) as exc:
                        result = {"error": _one_line(exc)}
                    out.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")
            except UnicodeDecodeError:
                print("malformed input: not UTF-8 text", file=sys.stderr)
                return 1
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


def cmd_analyse(args: argparse.Namespace) -> int:
    """``ulti analyse FILE|-``: price every decision of a finished deal (``--json``: the server's analysis JSON)."""
    from ulti.analysis.pricing import DEFAULT_WORLDS
    from ulti.analysis.report import format_table
    from ulti.analysis.review import analyse_deal, finished_deal

    worlds = DEFAULT_WORLDS if args.worlds is None else args.worlds
    if worlds < 1:
        print("--worlds must be at least 1", file=sys.stderr)
        return 1

    try:
        stream = _open_input(args.file)
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 1
    with stream:
        try:
            text = stream.read()
        except UnicodeDecodeError:
            print("malformed input: not UTF-8 text", file=sys.stderr)
            return 1
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"malformed JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", file=sys.stderr)
        return 1
    try:
        deal = finished_deal(record)
    except (UltiError, ValueError, RecursionError) as exc:
        print(_one_line(exc), file=sys.stderr)
        return 1
    analysis = analyse_deal(deal, worlds=worlds, seed=args.seed)
    if args.json:
        print(json.dumps(analysis, ensure_ascii=False, indent=1))
    else:
        print(format_table(analysis))
    return 0


def cmd_tournament_schedule(args: argparse.Namespace) -> int:
    """``ulti tournament schedule``: a format's rounds and tables for N players (docs/record.md)."""
    from ulti.tournaments.plan import schedule_json, schedule_text

    try:
        schedule = schedule_json(args.players, args.format, args.rounds, args.seed, args.four)
    except ValueError as exc:
        print(f"ulti tournament schedule: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(schedule, indent=1) if args.json else schedule_text(schedule))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """``ulti play``: a match among bots, printed deal by deal with the running score sheet."""
    from ulti.terminal import play_match_in_terminal

    play_match_in_terminal(deals=args.deals, seed=args.seed, out=sys.stdout)
    return 0


def _at_least(low: int) -> Callable[[str], int]:
    """An argument type: a whole number, ``low`` or more (argparse names the option when it is not)."""

    def parse(text: str) -> int:
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"at least {low}, not {value}")
        return value

    return parse


def cmd_arena(args: argparse.Namespace) -> int:
    """``ulti arena``: duplicate deals between two bot levels, mean scores with 95% intervals (overall and
    per contract family), in whole games or card play on a fixed auction."""
    import os

    from ulti.lab.arena import check_family, print_progress, run_report

    try:
        check_family(args.mode, args.family)
    except ValueError as exc:
        sys.stderr.write(f"ulti arena: {exc}\n")
        return 2
    workers = args.workers or len(os.sched_getaffinity(0))
    out = open(args.records, "w", encoding="utf-8") if args.records else None  # noqa: SIM115
    try:
        report = run_report(
            args.a,
            args.b,
            args.deals,
            args.seed,
            workers,
            out,
            print_progress,
            args.mode,
            args.auction_level,
            args.family,
            first_set=args.first_set,
        )
    finally:
        if out is not None:
            out.close()
    summary = report.overall
    sys.stderr.write("\n")
    what = "whole games" if args.mode == "game" else f"card play, auction by {args.auction_level or args.b}"
    if args.family:
        what += f", {args.family} contracts only"
    sets = f" (sets {args.first_set} to {args.first_set + args.deals - 1})" if args.first_set else ""
    print(f"{args.deals} duplicate deals{sets} ({6 * args.deals} plays), mode {args.mode} ({what}), seed {args.seed},"
          f" {workers} processes")
    print(f"A = {args.a}: {summary.mean:+.3f} per deal, 95% interval [{summary.low:+.3f}, {summary.high:+.3f}]")
    print(f"B = {args.b}: {-summary.mean:+.3f} per deal, 95% interval [{-summary.high:+.3f}, {-summary.low:+.3f}]")
    verdict = "the interval excludes zero" if summary.excludes_zero() else "the interval includes zero: no verdict"
    print(verdict)
    print("A per contract family:")
    for name, fam in report.families.items():
        interval = f"[{fam.low:+.3f}, {fam.high:+.3f}]"
        # a family of fewer than 50 deals is shown but too small to judge on its own
        small = "" if fam.sets >= 50 else "  (under 50 deals)"
        print(f"  {name:10s} {fam.sets:5d} deals  {fam.mean:+.3f} per deal, 95% interval {interval}{small}")
    print(f"safety stops: {report.safety_stops}" + ("" if not report.safety_stops else " (figures may depend on load)"))
    if args.records:
        print(f"deal records (ulti-deal/1, one per line): {args.records}")
    return 0


def cmd_puzzles_generate(args: argparse.Namespace) -> int:
    """``ulti puzzles generate``: cut puzzles (ulti-puzzle/1) from a JSON-lines file of deal records."""
    from ulti.puzzles.generate import open_text, run_generate

    if args.limit is not None and args.limit < 1:
        print("ulti puzzles generate: --limit must be at least 1", file=sys.stderr)
        return 2
    try:
        out = sys.stdout if args.out in (None, "-") else open_text(args.out, "w")
        try:
            stats, written = run_generate(args.source, out, args.limit)
        finally:
            if out is not sys.stdout:
                out.close()
    except OSError as exc:
        print(f"ulti puzzles generate: {exc}", file=sys.stderr)
        return 1
    share = 100.0 * stats.kept / stats.positions if stats.positions else 0.0
    print(f"{stats.positions} card decisions judged, {stats.kept} kept as puzzles ({share:.2f}%),"
          f" {written} distinct puzzles written", file=sys.stderr)
    for reason, n in stats.reasons.most_common():
        print(f"  {n:7d}  {reason}", file=sys.stderr)
    return 0


def cmd_puzzles_check(args: argparse.Namespace) -> int:
    """``ulti puzzles check``: verify every puzzle of a file again, exactly; exit 1 naming the bad ones."""
    from ulti.puzzles.generate import run_check

    try:
        bad = run_check(args.file)
    except OSError as exc:
        print(f"ulti puzzles check: {exc}", file=sys.stderr)
        return 1
    for line in bad:
        print(line)
    return 1 if bad else 0


def cmd_serve(args: argparse.Namespace) -> int:
    """``ulti serve``: run the game server (needs the ``server`` extra: ``pip install 'ulti[server]'``)."""
    try:
        import uvicorn
    except ImportError:
        print("ulti serve needs the server extra: pip install 'ulti[server]'", file=sys.stderr)
        return 1

    from ulti.server.app import create_app
    from ulti.server.config import Settings
    from ulti.server.wsprotocol import WebSocketProtocol

    settings = Settings(db_url=args.db)
    if args.fast:
        settings = Settings.for_tests(args.db)
    if args.bot_delay is not None:
        settings.bot_delay = args.bot_delay
    if args.between_deals is not None:
        settings.between_deals = args.between_deals
    if args.trick_pause is not None:
        settings.trick_pause = args.trick_pause
    if args.result_seconds is not None:
        settings.result_seconds = args.result_seconds
    if args.disconnect_grace is not None:
        settings.disconnect_grace = args.disconnect_grace
    if args.let_bot_after is not None:
        settings.let_bot_after = args.let_bot_after
    if args.unload_idle_seconds is not None:
        settings.unload_idle_seconds = args.unload_idle_seconds
    if args.expire_unstarted_seconds is not None:
        settings.expire_unstarted_seconds = args.expire_unstarted_seconds
    settings.redis_url = args.redis
    settings.lease_seconds = args.lease_seconds
    settings.metrics = args.metrics
    if args.api_rate is not None:
        settings.quotas = dataclasses.replace(settings.quotas, api_per_token=args.api_rate)
    if args.bot_processes is not None:
        settings.bot_processes = args.bot_processes
    if args.long_work_processes is not None:
        settings.long_work_processes = args.long_work_processes
    settings.long_work_queue = args.long_work_queue
    settings.long_work_local = args.local_workers
    settings.bots_on_queue = args.bots_on_queue
    try:
        settings.work = _work_quotas(settings.work, args.work_quota)
    except ValueError as exc:
        print(f"ulti serve: --work-quota: {exc}", file=sys.stderr)
        return 2
    app = create_app(settings)
    tune_collector()
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws=WebSocketProtocol,  # answers a handshake refused for its size instead of hanging (wsprotocol.py)
        ws_max_size=64 * 1024,
        # Messages are a few KiB on a card-game cadence: deflating each one cost more CPU than it saved.
        ws_per_message_deflate=False,
        ws_ping_interval=20,
    )
    return 0


def _work_quotas(base: Any, items: list[str]) -> Any:
    """``base`` (a ``WorkQuotas``) with each ``NAME=VALUE`` of ``items`` set; ValueError naming a bad one."""
    fields = {f.name: f for f in dataclasses.fields(base)}
    changes: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or name not in fields:
            raise ValueError(f"{item!r} is not NAME=VALUE with NAME one of {', '.join(fields)}")
        if fields[name].type in (int, "int"):
            if not value.isdigit():
                raise ValueError(f"{name} is a whole number, not {value!r}")
            changes[name] = int(value)
        else:
            from limits import parse_many  # the server extra, as the quotas themselves

            try:
                parse_many(value)
            except ValueError:
                raise ValueError(f"{name} is a rate such as 48/hour, not {value!r}") from None
            changes[name] = value
    return dataclasses.replace(base, **changes)


def cmd_worker(args: argparse.Namespace) -> int:
    """``ulti worker``: run the pieces of long work that servers put on the job queue (docs/queue.md)."""
    try:
        from ulti.queue import worker
        from ulti.queue.jobs import LEASE_SECONDS, QueueSpec
    except ImportError:
        print("ulti worker needs the server extra: pip install 'ulti[server]'", file=sys.stderr)
        return 1
    spec = QueueSpec(args.queue or args.redis, args.lease_seconds or LEASE_SECONDS)
    if not spec.is_redis and not spec.url.startswith("sqlite:"):
        print(f"ulti worker: --queue: {spec.url!r} is neither redis://… nor sqlite:PATH", file=sys.stderr)
        return 2
    worker.run(spec, args.workers, frozenset(args.allow_piece), args.low_priority, args.server_pid)
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    """``ulti bot``: a built-in bot level playing as a bot account through the bot API (docs/bot-api.md)."""
    import asyncio

    from ulti.botclient import run_bot

    return asyncio.run(run_bot(args.server, args.token, args.level, args.upgrade, args.record, args.tables))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``ulti`` command."""
    from ulti.bots.families import PLAYED_FAMILIES  # pure Python: the solver stays unloaded

    parser = argparse.ArgumentParser(prog="ulti", description="Ulti, the Hungarian card game: tools.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score a deal or match record (docs/record.md)")
    score.add_argument("file", help="the record file, or - for standard input")
    score.add_argument("--jsonl", action="store_true", help="one record per line in, one result per line out")
    score.set_defaults(func=cmd_score)
    analyse = sub.add_parser("analyse", help="price every decision of a finished deal record (docs/record.md)")
    analyse.add_argument("file", help="the ulti-deal/1 record file, or - for standard input")
    analyse.add_argument("--json", action="store_true", help="the analysis as JSON (what the server serves)")
    analyse.add_argument("--worlds", type=int, default=None, help="sampled worlds per decision (default 64)")
    analyse.add_argument("--seed", type=int, default=1, help="seed of the sampled worlds (default 1)")
    analyse.set_defaults(func=cmd_analyse)
    tournament = sub.add_parser("tournament", help="tournament tools without a server")
    tsub = tournament.add_subparsers(dest="tournament_command", required=True)
    schedule = tsub.add_parser("schedule", help="print a format's rounds and tables for N players")
    schedule.add_argument("--players", type=int, required=True, help="the number of players")
    schedule.add_argument("--format", required=True,
                          help="everyone (everyone meets everyone), teams, standings, duplicate or arena")
    schedule.add_argument("--rounds", type=int, default=None, help="print only the first R rounds")
    schedule.add_argument("--seed", type=int, default=0, help="seed of a drawn first round (default 0)")
    schedule.add_argument("--four", action="store_true",
                          help="standings: tables of four (the dealer sits out each deal) instead of bots")
    schedule.add_argument("--json", action="store_true", help="the schedule as JSON")
    schedule.set_defaults(func=cmd_tournament_schedule)
    play = sub.add_parser("play", help="watch bots play a match in the terminal")
    play.add_argument("--deals", type=int, choices=(6, 9, 12), default=6)
    play.add_argument("--seed", type=int, default=None, help="seed for the shuffles (default: random)")
    play.set_defaults(func=cmd_play)
    arena = sub.add_parser("arena", help="duplicate deals between two bot levels")
    arena.add_argument("--a", default="heuristic", help="bot level A (random, heuristic, strong, expert, ...)")
    arena.add_argument("--b", default="random", help="bot level B")
    arena.add_argument("--deals", type=int, default=200, help="duplicate deals (each is played 6 times)")
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument("--workers", type=int, default=0, help="processes (default: every core)")
    arena.add_argument("--records", default="arena-records.jsonl", help="file for the deal records ('' for none)")
    arena.add_argument("--mode", choices=("game", "cards"), default="game",
                       help="game: whole deals, auction included; cards: card play on an auction fixed per deal")
    arena.add_argument("--auction-level", default=None,
                       help="cards mode: the level whose bots play each deal's auction once (default: B's)")
    arena.add_argument("--family", default=None,
                       help="cards mode: only deals whose auction ends in this contract family"
                            f" ({', '.join(PLAYED_FAMILIES)})")
    arena.add_argument("--first-set", type=_at_least(0), default=0, metavar="K",
                       help="play sets K to K+DEALS-1 (default 0): a long run split into ranges, their records "
                            "joined in order")
    arena.set_defaults(func=cmd_arena)
    puzzles = sub.add_parser("puzzles", help="cut puzzles from deal records, or check puzzles (docs/record.md)")
    puzzle_sub = puzzles.add_subparsers(dest="puzzles_command", required=True)
    generate = puzzle_sub.add_parser("generate", help="records in (JSON lines of ulti-deal/1), puzzles out")
    generate.add_argument("--from", dest="source", required=True, help="JSON-lines file of deal records")
    generate.add_argument("--out", default=None,
                          help="file for the puzzles, one per line, gzipped if it ends in .gz (default: stdout)")
    generate.add_argument("--limit", type=int, default=None, help="stop after this many puzzles")
    generate.set_defaults(func=cmd_puzzles_generate)
    check = puzzle_sub.add_parser("check", help="verify every puzzle's solution again, exactly")
    check.add_argument("file", help="JSON-lines file of ulti-puzzle/1 objects")
    check.set_defaults(func=cmd_puzzles_check)
    serve = sub.add_parser("serve", help="run the game server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", default="sqlite+aiosqlite:///data/ulti.db", help="SQLAlchemy URL of the store")
    serve.add_argument("--bot-delay", type=float, default=None,
                       help="seconds from a bot's turn to its move (it thinks meanwhile)")
    serve.add_argument("--between-deals", type=float, default=None, help="seconds between deals")
    serve.add_argument("--trick-pause", type=float, default=None,
                       help="seconds a finished trick stays on screen before a bot leads (default 1.8; 0 with --fast)")
    serve.add_argument("--result-seconds", type=float, default=None,
                       help="seconds a deal's result waits for every player's \"Next deal\" (default 120)")
    serve.add_argument("--disconnect-grace", type=float, default=None,
                       help="seconds before a bot plays for a disconnected player")
    serve.add_argument("--let-bot-after", type=float, default=None,
                       help="seconds a table without a time limit waits for a disconnected player before the "
                            "others may let a bot play for them (default 60)")
    serve.add_argument("--fast", action="store_true", help="no waiting anywhere (tests, load runs)")
    serve.add_argument("--redis", default=None, help="Redis URL shared with other server processes (scale-out)")
    serve.add_argument("--lease-seconds", type=float, default=5.0, help="table ownership lease (with --redis)")
    serve.add_argument("--unload-idle-seconds", type=float, default=None,
                       help="seconds before an idle finished table is unloaded from memory (default 120)")
    serve.add_argument("--expire-unstarted-seconds", type=float, default=None,
                       help="seconds an unstarted table waits after its last event before it expires (default 2700)")
    serve.add_argument("--metrics", action=argparse.BooleanOptionalAction, default=True,
                       help="serve GET /metrics in the Prometheus format (see docs/deploy.md to restrict it)")
    serve.add_argument("--api-rate", default=None,
                       help="requests one bot API token may make, e.g. '20/second;600/minute' (docs/bot-api.md)")
    serve.add_argument("--bot-processes", type=_at_least(1), default=None,
                       help="worker processes the strong bots think in (default: one per core)")
    serve.add_argument("--long-work-processes", type=int, default=None,
                       help="low-priority processes for analyses, par replays, what-if lines, hints (default 1)")
    serve.add_argument("--work-quota", action="append", default=[], metavar="NAME=VALUE",
                       help="a long-work quota, e.g. analysis_per_player=48/hour (docs/deploy.md); repeatable")
    serve.add_argument("--long-work-queue", default=None, metavar="URL",
                       help="the job queue of long work: sqlite:PATH or redis://… (default: the --redis URL, else "
                            "a SQLite file beside the store; 'pool': no queue, docs/queue.md)")
    serve.add_argument("--local-workers", action=argparse.BooleanOptionalAction, default=True,
                       help="start --long-work-processes workers of the queue here (off: `ulti worker`s elsewhere)")
    serve.add_argument("--bots-on-queue", action="store_true",
                       help="strong bots think on the job queue's workers, not in this process's own (docs/queue.md)")
    serve.set_defaults(func=cmd_serve)
    worker = sub.add_parser("worker", help="do the servers' long work from their job queue (docs/deploy.md)")
    where = worker.add_mutually_exclusive_group(required=True)
    where.add_argument("--queue", default=None, metavar="URL", help="the queue: redis://… or sqlite:PATH")
    where.add_argument("--redis", default=None, metavar="URL", help="the queue on this Redis (the servers' --redis)")
    worker.add_argument("--workers", type=int, default=1, help="pieces run at once, one process each (default 1)")
    worker.add_argument("--lease-seconds", type=float, default=None,
                        help="seconds a job's lease lasts without renewal (the servers' own; default 10)")
    worker.add_argument("--low-priority", action="store_true", help="run at the lowest CPU priority, ending with "
                        "the parent process (the server's own workers)")
    worker.add_argument("--server-pid", type=int, default=None, metavar="PID",
                        help="with --low-priority: the server that started this worker; the worker ends at once "
                        "if its parent is not that process (the server was gone before it started)")
    worker.add_argument("--allow-piece", action="append", default=[], metavar="MODULE:FUNCTION",
                        help="a function this worker may run beside the server's long work (tests); repeatable")
    worker.set_defaults(func=cmd_worker)
    bot = sub.add_parser("bot", help="play a built-in bot level on a server through the bot API")
    bot.add_argument("--server", required=True, help="the server's URL, e.g. https://ulti.example")
    bot.add_argument("--token", required=True, help="a personal API token with the bot:play scope")
    bot.add_argument("--level", default="heuristic", help="bot level (random, heuristic, strong)")
    bot.add_argument("--upgrade", action="store_true", help="first turn the token's account into a bot account")
    bot.add_argument("--record", default=None, help="a folder for every line the table streams send")
    bot.add_argument("--tables", type=int, default=None, help="stop after this many matches (default: never)")
    bot.set_defaults(func=cmd_bot)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ulti`` console script."""
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())

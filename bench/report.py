"""The bench's report: its tables, and the recorded run in docs/benchmarks.md."""

from __future__ import annotations

import sys
from typing import Any

from measure_engine import ENGINE_GOAL
from measure_startup import GOAL, SEED
from tools import ROOT

from tictactoe_generator.atomic import write_atomically

DOC = ROOT / "docs" / "benchmarks.md"
#: docs/benchmarks.md from this heading to its end is the recorded run (``--record``).
RECORD_HEADING = "## Latest recorded run"


def record(report: str) -> None:
    """Replace the recorded run at the end of docs/benchmarks.md with ``report``."""
    text = DOC.read_text(encoding="utf-8")
    head, found, _ = text.partition("\n" + RECORD_HEADING + "\n")
    if not found:
        sys.exit(f"bench: {DOC.relative_to(ROOT)} has no line {RECORD_HEADING!r} to record the run under")
    body = f"{head}\n{RECORD_HEADING}\n\n```\n{report}\n```\n"
    write_atomically(DOC, body.encode("utf-8"))


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"


def times_over(value: float, baseline: float) -> str:
    return f"{value / baseline:.2f}x"


def render(f: dict[str, Any]) -> str:
    s, p, js, g, pi, p34, m = (
        f["startup"],
        f["proof"],
        f["js"],
        f["generator"],
        f["player_in_process"],
        f["proof_3x4"],
        f["machine"],
    )
    verdict = passed(s["meets_goal"])
    click_s = s["import_click_s"]
    click = f"import click {ms(click_s)}"
    json_ms = p["json_loads_ms"]
    pl = s["packaged_load"]
    sections: list[tuple[str, list[tuple[str, str, str, str]]]] = [
        (
            f"start-up: processes alternated, {s['rounds']} rounds, from outside the checkout; times are"
            " medians, ratios the median of each round's ratio",
            [
                (
                    "GOAL scripted game, installed wheel (packaged book)",
                    ms(s["packaged_game_s"]),
                    click,
                    f"{s['ratio']:.2f}x {verdict} (goal {GOAL}x; of the medians"
                    f" {s['ratio_of_medians']:.2f}x)",
                ),
                (
                    "same game, dev install, --book the checkout's book (proven)",
                    ms(s["dev_game_s"]),
                    click,
                    f"{s['dev_ratio']:.2f}x ({(s['dev_game_s'] - s['packaged_game_s']) * 1e3:+.1f} ms)",
                ),
                ("for scale: python -c pass", ms(s["python_s"]), click, times_over(s["python_s"], click_s)),
                (
                    "peak memory, installed-wheel game",
                    f"{s['peak_memory']['packaged_kib']:,} KiB",
                    f"import click {s['peak_memory']['click_kib']:,} KiB",
                    times_over(s["peak_memory"]["packaged_kib"], s["peak_memory"]["click_kib"]),
                ),
                (
                    "peak memory, dev-install game",
                    f"{s['peak_memory']['dev_kib']:,} KiB",
                    f"import click {s['peak_memory']['click_kib']:,} KiB",
                    times_over(s["peak_memory"]["dev_kib"], s["peak_memory"]["click_kib"]),
                ),
            ],
        ),
        (
            "what the proof costs: in process, alternated, medians",
            [
                (
                    "book size",
                    f"{p['bytes']:,} B, {p['entries']} entries",
                    f"gzip -9 {p['gzip_bytes']:,} B",
                    f"{p['bytes'] / p['gzip_bytes']:.1f}x",
                ),
                (
                    "strict JSON: reader.parse_json",
                    f"{p['strict_json_ms']:.2f} ms",
                    f"json.loads {json_ms:.2f} ms",
                    times_over(p["strict_json_ms"], json_ms),
                ),
                (
                    "the proof alone: reader.prove",
                    f"{p['prove_ms']:.2f} ms",
                    f"json.loads {json_ms:.2f} ms",
                    times_over(p["prove_ms"], json_ms),
                ),
                (
                    "parse_book: bytes to proven book",
                    f"{p['parse_book_ms']:.2f} ms",
                    f"json.loads {json_ms:.2f} ms",
                    times_over(p["parse_book_ms"], json_ms),
                ),
                (
                    f"load_book(), installed wheel ({pl['trust']})",
                    f"{pl['load_book_ms']:.2f} ms",
                    f"json.loads {pl['json_loads_ms']:.2f} ms",
                    times_over(pl["load_book_ms"], pl["json_loads_ms"]),
                ),
                *js_rows(js),
                *rows_3x4(p34),
            ],
        ),
        (
            "generator and player, in process",
            [
                (
                    "solve 3x3 (all 4,520 positions)",
                    ms(g["solve_s"]),
                    f"naive minimax (root only) {ms(g['naive_minimax_root_s'])}",
                    f"{g['naive_over_solve']:.1f}x faster",
                ),
                (
                    "solve 3x3 + exact trap order",
                    ms(g["solve_and_trap_order_s"]),
                    f"naive minimax (root only) {ms(g['naive_minimax_root_s'])}",
                    f"{g['naive_over_ours']:.1f}x faster",
                ),
                ("write the book (encode + atomic write)", ms(g["write_book_s"]), "", ""),
                (
                    "ttt-book build, as a process",
                    ms(g["build_process_s"]),
                    f"python -c pass {ms(g['python_s'])}",
                    f"{g['build_ratio']:.1f}x",
                ),
                (
                    "choose a move, median of 4,520 positions",
                    f"{pi['choose_move_median_us']:.2f} µs",
                    f"naive minimax at play time {pi['naive_minimax_median_us']:.0f} µs",
                    f"{pi['naive_over_book']:,.0f}x faster",
                ),
                (
                    "  first call per position (fresh book)",
                    f"{pi['choose_move_first_call_median_us']:.1f} µs",
                    f"empty board, naive: {pi['naive_minimax_empty_board_ms']:.0f} ms",
                    "",
                ),
            ],
        ),
        engine_section(f["engine"]),
    ]
    sections.append(("scale: the array solver, its trap order, and ttt-book build", scale_rows(f)))
    header = ("what", "measured", "baseline", "ratio")
    every = [header, *(row for _, rows in sections for row in rows)]
    widths = [max(len(row[i]) for row in every) for i in range(4)]

    def line(row: tuple[str, str, str, str]) -> str:
        return " | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()

    lines = [
        f"start-up goal: scripted game from the installed wheel / python -c 'import click' = "
        f"{s['ratio']:.2f}x: {verdict} (goal <= {GOAL}x)",
        "",
        line(header),
        "-+-".join("-" * width for width in widths),
    ]
    for title, rows in sections:
        lines.append(f"[{title}]")
        lines.extend(line(row) for row in rows)
    imports = s["imports"]
    lines.append("")
    lines.append(
        "installed-wheel game start-up imports (python -X importtime, which inflates each figure), "
        "largest cumulative first:"
    )
    lines.extend(import_line(row) for row in imports["largest"])
    lines.append(
        f"imports that python -c 'import click' does not make: {imports['beyond_click_modules']} modules, "
        f"{imports['beyond_click_self_us'] / 1e3:.1f} ms of their own time; the largest by their own time:"
    )
    lines.extend(import_line(row) for row in imports["beyond_click"])
    if "skipped" in p34:
        lines.append(f"\n3x4: not measured ({p34['skipped']})")
    if "missing" in js:
        lines.append(f"\nJS: not measured ({js['missing']})")
    lines.append("")
    lines.append(
        f"game: ttt-play --moves {s['moves']} --seed {SEED}; bench took {f['bench_seconds']:.0f} s\n"
        f"machine: {m['cores']} cores, {m['cpu']}, {m['memory']}, Python {m['python']}, "
        f"load average {m['load_average']:.1f} at the start"
    )
    return "\n".join(lines)


def passed(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def scale_rows(f: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    a = f["arrays"]
    rows = [
        (
            "solve 3x3 + trap order, arrays (the build's path)",
            ms(a["arrays_s"]),
            f"naive minimax (root only) {ms(a['naive_s'])}",
            f"{a['naive_over_arrays']:.1f}x faster",
        ),
    ]
    for b in f["builds"]:
        runs = f", median of {b['runs']}" if b["runs"] > 1 else ""
        goal = f"goal {b['goal_s']:.0f} s" + (f", {b['goal_kib'] / 2**20:.0f} GiB" if b["goal_kib"] else "")
        rows.append(
            (
                f"ttt-book build --rules {b['rules']}, a process{runs}",
                f"{b['build_s']:.2f} s, peak {b['peak_kib'] / 1024:,.0f} MiB",
                goal,
                passed(b["meets_goal"]),
            )
        )
        rows.append(
            (
                f"  its book ({b['entries']:,} entries)",
                f"{b['bytes']:,} B",
                f"gzip -6 {b['gzip_bytes']:,} B",
                f"{b['bytes'] / b['gzip_bytes']:.1f}x",
            )
        )
    rows.extend(first_load_rows(f["first_loads"]))
    rows.extend(damaged_rows(f.get("damaged_4x4"), "  the 4x4 book"))
    rows.append(recorded_start_row(f["recorded_start"]))
    rows.extend(parts_first_answer_rows(f["parts_first_answer"]))
    rows.extend(stage_rows(f["builds"][-1]))
    return rows


def first_load_rows(w: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    if "missing" in w:
        return [("  its first load, Python against JS", "not measured", w["missing"], "")]
    return [
        (
            f"  its first load in Python, CPU, median of {w['rounds']} alternated",
            f"{w['python_cpu_s']:.2f} s",
            f"JS loadBook {w['js_cpu_s']:.2f} s",
            f"{w['ratio']:.2f}x {passed(w['meets_goal'])} (goal {w['goal']:.0f}x)",
        )
    ]


def recorded_start_row(w: dict[str, Any]) -> tuple[str, str, str, str]:
    return (
        f"  a game on it once recorded as proven, CPU, median of {w['rounds']} alternated",
        f"{w['game_cpu_s']:.2f} s",
        f"json.loads of it {w['json_cpu_s']:.2f} s",
        f"{w['ratio']:.2f}x; {passed(w['meets_goal'])} (goal {w['goal_s']:.0f} s of CPU)",
    )


def parts_first_answer_rows(w: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    return [
        (
            f"  by parts ({w['parts_bytes'] / 1e6:.1f} MB): a game's first answer, median of {w['rounds']}",
            f"{w['parts_wall_s']:.2f} s wall, {w['parts_peak_mib']:.0f} MiB",
            f"its version-2 first load {w['v2_wall_s']:.2f} s, {w['v2_peak_mib']:.0f} MiB",
            f"{passed(w['meets_goal'])} (goal {w['goal_s']:.0f} s and {w['goal_mib']} MiB)",
        )
    ]


def stage_rows(build: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    st, ratio = build["stages_cpu_s"], build["stages_ratio"]
    counted = st["solve"] + st["trap_order"] + st["writing"]
    return [
        (
            "  its build, CPU, against its solve + trap order + writing",
            f"{build['build_cpu_s']:.2f} s",
            f"{counted:.2f} s",
            f"{ratio:.2f}x {passed(ratio <= build['stages_goal'])} (goal {build['stages_goal']:.0f}x)",
        ),
        (
            "    its stages, CPU, timed inside the build",
            f"solve {st['solve']:.2f} s, trap order {st['trap_order']:.2f} s",
            f"writing {st['writing']:.2f} s",
            "",
        ),
        (
            "    then",
            f"the proof {st['prove']:.2f} s",
            f"gzip -6 for the report {st['gzip']:.2f} s",
            "",
        ),
    ]


def import_line(row: dict[str, Any]) -> str:
    return f"  {row['module']:<28} self {row['self_us']:>6} µs   cumulative {row['cumulative_us']:>6} µs"


def js_rows(js: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    if "missing" in js:
        return [("JS reader", "not measured", "", "")]
    baseline = f"JSON.parse {js['json_parse_ms']:.2f} ms"
    return [
        (
            "JS strict JSON: parseStrictJSON",
            f"{js['parse_ms']:.2f} ms",
            baseline,
            times_over(js["parse_ms"], js["json_parse_ms"]),
        ),
        (
            "JS loadBook: bytes to proven book",
            f"{js['load_ms']:.2f} ms",
            baseline,
            times_over(js["load_ms"], js["json_parse_ms"]),
        ),
    ]


def rows_3x4(p34: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    if "skipped" in p34:
        return [("3x4 k=3 book: parse_book", "not measured", "", "")]
    return [
        ("3x4 k=3 book: ttt-book build (once)", f"{p34['build_s']:.1f} s", "", ""),
        (
            f"3x4 k=3 book: parse_book ({p34['entries']:,} entries, {p34['bytes'] / 2**20:.1f} MiB)",
            f"{p34['parse_book_ms']:.0f} ms",
            f"json.loads {p34['json_loads_ms']:.0f} ms",
            times_over(p34["parse_book_ms"], p34["json_loads_ms"]),
        ),
        *damaged_rows(p34.get("damaged"), "3x4 k=3 book"),
        js_row_3x4(p34.get("js", {"missing": "not measured"})),
    ]


def damaged_rows(d: dict[str, Any] | None, book: str) -> list[tuple[str, str, str, str]]:
    """The worst damaged book's refusal against the valid book's proof, in Python and in
    JavaScript (issue 41, item 3)."""
    if d is None:
        return []
    rows = [
        (
            f"{book}: the worst damaged one refused ({d['worst']})",
            f"{d['worst_ms']:.0f} ms",
            f"the valid one proven {d['valid_ms']:.0f} ms, goal {d['goal']:.0f}x",
            f"{times_over(d['worst_ms'], d['valid_ms'])} {passed(d['meets_goal'])}",
        )
    ]
    js = d.get("js", {"missing": "not measured"})
    if "missing" in js:
        rows.append((f"{book}: JS, the worst damaged one refused", "not measured", js["missing"], ""))
    else:
        rows.append(
            (
                f"{book}: JS, the worst damaged one refused ({js['worst']})",
                f"{js['worst_ratio'] * js['valid_ms']:.0f} ms",
                f"the valid one proven {js['valid_ms']:.0f} ms, goal {d['goal']:.0f}x",
                f"{js['worst_ratio']:.2f}x {passed(js['meets_goal'])}",
            )
        )
    return rows


def js_row_3x4(js: dict[str, Any]) -> tuple[str, str, str, str]:
    if "missing" in js:
        return ("3x4 k=3 book: JS loadBook", "not measured", js["missing"], "")
    return (
        "3x4 k=3 book: JS loadBook",
        f"{js['load_ms']:.0f} ms",
        f"JSON.parse {js['json_parse_ms']:.0f} ms",
        times_over(js["load_ms"], js["json_parse_ms"]),
    )


def engine_section(e: dict[str, Any]) -> tuple[str, list[tuple[str, str, str, str]]]:
    verdict = passed(e["meets_goal"])
    return (
        f"ttt-play --engine: {e['requests']:,} requests one at a time through a pipe from Python",
        [
            (
                "requests per second (evaluate and seeded choose)",
                f"{e['requests_per_s']:,.0f}/s {verdict} (goal {ENGINE_GOAL:,}/s)",
                f"cat echoing them {e['cat_requests_per_s']:,.0f}/s",
                f"{e['cat_requests_per_s'] / e['requests_per_s']:.1f}x slower",
            )
        ],
    )

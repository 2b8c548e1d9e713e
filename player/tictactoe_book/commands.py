"""The entry point of ``ttt-play`` (pyproject.toml's scripts), and how both commands report an
interrupt before their command line is imported (``ttt-book``'s entry point,
``tictactoe_generator.commands``, uses ``interrupted``).

Ctrl-C ends either command with one line, "Interrupted.", and status 130 (docs/reliability.md).
``tictactoe_book.apps.console.run_cli`` says so once the command runs, but the console script pip
writes imports the module its entry point names before it calls anything, and importing the
command line with click takes tens of milliseconds: an interrupt then printed a traceback, and
Python ended the process by SIGINT. So the entry points import nothing but ``sys`` (the package's
``__init__``, which runs first, imports none of its modules), and import the command line under
their own handler: from this module's first line on, an interrupt is one line and 130. Nothing
else belongs here; the start-up is measured (docs/benchmarks.md).
"""

import sys

#: As tictactoe_book.apps.console reports an interrupt once the command runs (its INTERRUPTED).
INTERRUPTED = 130


def ttt_play() -> None:
    """``ttt-play``: tictactoe_book.apps.cli, with Ctrl-C caught from the first import on."""
    try:
        from tictactoe_book.apps.cli import run

        run()
    except KeyboardInterrupt:
        interrupted()


def interrupted() -> None:
    """One line, "Interrupted.", on standard error and status 130, with little more than ``sys``.

    On a terminal a newline first ends the line the terminal's ``^C`` is on, as click does for
    an interrupt once the command runs; anywhere else the one line is all.
    """
    import contextlib  # here: only an interrupt pays for it

    # standard error closed (None) or gone: nothing can be said, and the status stays 130
    with contextlib.suppress(OSError, ValueError):
        if sys.stderr is not None:
            sys.stderr.write("\nInterrupted.\n" if sys.stderr.isatty() else "Interrupted.\n")
            sys.stderr.flush()
    sys.exit(INTERRUPTED)

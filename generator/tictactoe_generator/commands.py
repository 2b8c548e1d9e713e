"""The entry point of ``ttt-book`` (pyproject.toml's scripts): like ``ttt-play``'s
(tictactoe_book.commands, which says why), it imports nothing but ``sys`` before it catches Ctrl-C,
so an interrupt while the command line is imported is one line and status 130. The package's
``__init__``, which runs first, imports only what that needs.
"""

from tictactoe_book.commands import interrupted


def ttt_book() -> None:
    """``ttt-book``: tictactoe_generator.cli, with Ctrl-C caught from the first import on."""
    try:
        from tictactoe_generator.cli import run

        run()
    except KeyboardInterrupt:
        interrupted()

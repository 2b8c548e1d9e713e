"""Reports on a finished book: a board's entry for people (``query``), the levels' exact rates
(``levels``), the strategy drawn as posters (``poster``), and the grading of other programs
(``audit``).

The limits the reports share live here, where a command line can read them without importing
the report itself (``ttt-book``'s options, its help).
"""

#: Seconds a program under the audit's contract may take to start, allowed on top of its
#: time-out for the first board after each start (docs/audit.md): a JVM takes about a second,
#: a program loading a model several; only a program that never answers that board waits it out.
STARTUP = 10.0
#: The largest board a report that walks every line of play works out (``levels``, ``audit``,
#: ``build --against-program``): 3x4 takes seconds; 4x4 would walk millions of positions per
#: match, each a Python object (and the audit would ask a program about as many).
MAX_CELLS = 12

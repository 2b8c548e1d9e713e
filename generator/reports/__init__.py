"""Reports on a finished book: a board's entry for people (``query``), the levels' exact rates
(``levels``), the strategy drawn as posters (``poster``), and the grading of other programs
(``audit``)."""

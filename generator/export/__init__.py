"""The book as source code (``ttt-book export``): static tables and a few functions in C or Rust,
no JSON to parse.

``tables`` computes the tables from a proven book (every entry, or one side's strategy);
``c`` and ``rust`` fill the sources in ``templates/`` with them (in C, a header and a source,
or a single header). The functions in the templates are one mirror each of ``player.game``'s:
the board checks, the board codes (the tables' keys), the canonical form (through the rules'
symmetries, which the tables carry as ``Rules.symmetries`` derives them), the score scale.
"""

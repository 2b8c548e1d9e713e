"""The book as source code (``ttt-book export``): static tables and a few functions in C or Rust,
no JSON to parse.

``tables`` computes the tables from a proven book (every entry, or one side's strategy);
``c`` and ``rust`` fill the sources in ``templates/`` with them. The functions in the templates
are one mirror each of the reader's: the board checks, the canonical form (through the rules'
symmetries, which the tables carry as ``Rules.symmetries`` derives them), the score scale.
"""

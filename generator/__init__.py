"""Build-time code: the solver and the book writer. Imports ``player``; never imported by it."""

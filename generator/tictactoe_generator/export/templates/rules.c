#define TTT_SYMMETRIES ${symmetries}
#define TTT_LINES ${line_count}
#define TTT_WIN_SCORE ${win_score} /* the score of a move that completes a line */

/* The symmetries, the identity first: the image of a board under symmetry s has at cell i the
 * board's cell ttt_perms[s][i]; a cell c of the image is cell ttt_perms[s][c] of the board. */
static const uint8_t ttt_perms[TTT_SYMMETRIES][TTT_CELLS] TTT_FLASH = {
${perms}
};

/* The winning lines: every run of TTT_K cells along a row, column or diagonal. */
static const uint8_t ttt_lines[TTT_LINES][TTT_K] TTT_FLASH = {
${lines}
};

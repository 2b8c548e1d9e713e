/* The game itself, from the rules alone: any board of them, finished or not (a board error here
 * is a malformed or impossible board, never TTT_ERR_OVER, unless a move is asked for). */

/* How the game stands: TTT_IN_PROGRESS, TTT_X_WINS, TTT_O_WINS or TTT_DRAW, by the rules
 * (under misère the side that completes a line loses, so the other side wins), or a negative
 * TTT_ERR_* code. */
int ${api}outcome(const char *board);

/* Whose turn it is: 'X' or 'O', the mark that moves next (X when the marks are level; on a
 * finished board, the one that would move next), or a negative TTT_ERR_* code. */
int ${api}turn(const char *board);

/* The cells of the completed line, if any (the first of the rules' lines that one mark owns),
 * into cells[0 .. TTT_K - 1]; returns TTT_K, 0 when no line is complete, or a negative code. */
int ${api}completed_line(const char *board, int cells[TTT_K]);

/* The free cells in increasing order, none once the game is over: writes the first `max` of
 * them to `moves` (which may be NULL when max is 0) and returns how many there are, or a
 * negative TTT_ERR_* code. */
int ${api}legal_moves(const char *board, int moves[], int max);

/* The board after the side to move takes `cell`, with its terminating NUL, into
 * out[0 .. TTT_CELLS] (`out` may be `board` itself); returns 0, TTT_ERR_OVER once the game is
 * over, TTT_ERR_ILLEGAL_MOVE for a cell off the board or taken, or another board error. */
int ${api}play(const char *board, int cell, char out[TTT_CELLS + 1]);

/* The next number of the caller's generator, mulberry32 (Tommy Ettinger's, public domain): the
 * state, any 32-bit value (a seed), advances by 0x6D2B79F5 each call and the sum is mixed into
 * the number returned. ttt_choose draws with it. */
uint32_t ${api}random(uint32_t *state);

/* The conformance vectors' name of an error code: "length", "character", ... (the TTT_ERR_*
 * list above, in order); "" for any other number, 0 and every non-negative answer included.
 * On AVR the names stay in flash and the one asked for is copied into a static buffer, which
 * the next call overwrites. */
const char *${api}error_name(int code);

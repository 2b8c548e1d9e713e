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

/* For people: the board as a grid, free cells numbered 1 to TTT_CELLS as players number them
 * (right-aligned to the widest number), rows of cells between " | ", rows between rules of '-'
 * and '+', no final newline, as Python's tictactoe_book.notation.grid draws it:
 *
 *      X | 2 | 3
 *     ---+---+---
 *      4 | O | 6
 *     ---+---+---
 *      7 | 8 | X
 *
 * into out[0 .. size - 1] with its NUL (TTT_GRID_SIZE bytes hold the grid of any board);
 * returns its length without the NUL, a board error (a finished game is a board here), or
 * TTT_ERR_SIZE when `size` is below TTT_GRID_SIZE. On an error out[0] is '\0' (when size > 0). */
int ${api}grid(const char *board, char *out, size_t size);

/* The cell a player means by `text`, a number from 1 to TTT_CELLS as ${api}grid shows them, with
 * spaces, tabs, CRs and LFs around it allowed (" 5\n" is cell 4), as Python's
 * tictactoe_book.notation.parse_move reads it; else, after the board's own errors,
 * TTT_ERR_NOT_A_NUMBER for text that is not 1 to 16 ASCII digits (signs, points and inner
 * spaces included; a NULL text too), TTT_ERR_ILLEGAL_MOVE for a number off the board (0
 * included), TTT_ERR_OVER once the game is over, TTT_ERR_ILLEGAL_MOVE for a taken cell. */
int ${api}parse_move(const char *board, const char *text);

/* A game with its history: the board it began from, the board now and the cells played since,
 * in order (moves[0 .. count - 1]), as Python's tictactoe_book.history.Game keeps them. The
 * caller owns it (no allocation) and reads its fields; the functions below change it. */
struct ${api}game {
    char start[TTT_CELLS + 1];
    char board[TTT_CELLS + 1];
    int moves[TTT_CELLS];
    int count;
};

/* Starts `game` from `board` (NULL: the empty board), finished or not; returns 0, or a board
 * error (not TTT_ERR_OVER) and leaves `game` as it was. */
int ${api}game_start(struct ${api}game *game, const char *board);

/* Plays `cell` for the side to move; returns 0, or the error ${api}play gives (TTT_ERR_OVER,
 * TTT_ERR_ILLEGAL_MOVE) and leaves `game` as it was. */
int ${api}game_play(struct ${api}game *game, int cell);

/* Takes the last move back; returns its cell, or -1 when no move was played since the start. */
int ${api}game_undo(struct ${api}game *game);

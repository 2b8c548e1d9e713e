/* Asks a generated C export about the game (tests/test_exports.py): one line in, one line out.
 *
 *   s BOARD               ttt_outcome, ttt_completed_line and ttt_legal_moves:
 *                         "outcome=N line=a,b,c moves=a,b,..." (or "error=NAME" for each call
 *                         that refuses the board, "error=NAME,NAME,NAME")
 *   t BOARD               ttt_turn: "turn=X" (or O) or "error=NAME"
 *   p CELL BOARD          ttt_play: "board=NEW" or "error=NAME"
 *   c LEVEL SEED BOARD    ttt_choose from state SEED: "cell=C state=S" or "error=NAME"
 *   r SEED COUNT          COUNT numbers of ttt_random from state SEED, space-separated
 *   g LEVEL SIDE SEED N   N games, the export at LEVEL as SIDE (X moves first) against a player
 *                         choosing uniformly among ttt_legal_moves, both drawing from one state
 *                         seeded SEED: "won=W drawn=D lost=L" by ttt_outcome
 *
 * BOARD is the rest of the line, whatever it holds. Levels are numbers (TTT_PERFECT, ...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tictactoe_book.h"

static void print_cells(const int *cells, int count)
{
    int i;
    for (i = 0; i < count; i++) {
        printf(i ? ",%d" : "%d", cells[i]);
    }
}

static void state(const char *board)
{
    int line[TTT_K];
    int moves[TTT_CELLS];
    int outcome = ttt_outcome(board);
    int completed = ttt_completed_line(board, line);
    int count = ttt_legal_moves(board, moves, TTT_CELLS);
    if (outcome < 0 || completed < 0 || count < 0) {
        printf("error=%s,%s,%s\n", ttt_error_name(outcome), ttt_error_name(completed), ttt_error_name(count));
        return;
    }
    printf("outcome=%d line=", outcome);
    print_cells(line, completed);
    printf(" moves=");
    print_cells(moves, count);
    printf("\n");
}

/* One game from the empty board; the result for `side`: 1 won, 0 drawn, -1 lost. */
static int game(int level, char side, uint32_t *rng_state)
{
    char board[TTT_CELLS + 1];
    int moves[TTT_CELLS];
    int outcome;
    memset(board, '.', TTT_CELLS);
    board[TTT_CELLS] = '\0';
    while ((outcome = ttt_outcome(board)) == TTT_IN_PROGRESS) {
        int x = 0;
        int o = 0;
        int cell;
        int i;
        for (i = 0; i < TTT_CELLS; i++) {
            x += board[i] == 'X';
            o += board[i] == 'O';
        }
        if ((x == o) == (side == 'X')) {
            cell = ttt_choose(board, level, rng_state);
        } else {
            int count = ttt_legal_moves(board, moves, TTT_CELLS);
            cell = moves[ttt_random(rng_state) % (uint32_t)count];
        }
        if (ttt_play(board, cell, board) != 0) {
            printf("bad move %d on %s\n", cell, board);
            exit(1);
        }
    }
    if (outcome == TTT_DRAW) {
        return 0;
    }
    return (outcome == TTT_X_WINS) == (side == 'X') ? 1 : -1;
}

int main(void)
{
    char line[512];
    while (fgets(line, sizeof line, stdin) != NULL) {
        char out[TTT_CELLS + 1];
        int a = 0;
        unsigned long seed = 0;
        unsigned long n = 0;
        char side = 'X';
        int used = 0;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == 's') {
            state(line + 2);
        } else if (line[0] == 't') {
            int turn = ttt_turn(line + 2);
            if (turn < 0) {
                printf("error=%s\n", ttt_error_name(turn));
            } else {
                printf("turn=%c\n", turn);
            }
        } else if (line[0] == 'p' && sscanf(line + 2, "%d %n", &a, &used) == 1) {
            int error = ttt_play(line + 2 + used, a, out);
            if (error) {
                printf("error=%s\n", ttt_error_name(error));
            } else {
                printf("board=%s\n", out);
            }
        } else if (line[0] == 'c' && sscanf(line + 2, "%d %lu %n", &a, &seed, &used) == 2) {
            uint32_t rng = (uint32_t)seed;
            int cell = ttt_choose(line + 2 + used, a, &rng);
            if (cell < 0) {
                printf("error=%s\n", ttt_error_name(cell));
            } else {
                printf("cell=%d state=%lu\n", cell, (unsigned long)rng);
            }
        } else if (line[0] == 'r' && sscanf(line + 2, "%lu %lu", &seed, &n) == 2) {
            uint32_t rng = (uint32_t)seed;
            unsigned long i;
            for (i = 0; i < n; i++) {
                printf(i ? " %lu" : "%lu", (unsigned long)ttt_random(&rng));
            }
            printf("\n");
        } else if (line[0] == 'g' && sscanf(line + 2, "%d %c %lu %lu", &a, &side, &seed, &n) == 4) {
            uint32_t rng = (uint32_t)seed;
            unsigned long results[3] = {0, 0, 0};
            unsigned long i;
            for (i = 0; i < n; i++) {
                results[game(a, side, &rng) + 1]++;
            }
            printf("won=%lu drawn=%lu lost=%lu\n", results[2], results[1], results[0]);
        } else {
            printf("unknown request %s\n", line);
        }
    }
    return 0;
}

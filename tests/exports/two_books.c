/* A program with two books (tests/test_exports.py): the normal 3x3 export with the default
 * prefix (ttt_) and the misère one exported with --prefix mis, each from a folder of its own,
 * both headers included here and both sources linked in. Prints, for each book in turn, its
 * best moves, the value of one board and how a finished board stands:
 *
 *   X X .
 *   O O .    X to move: completing the top row wins the normal game at once,
 *   . . .    and loses the misère one.
 */
#include <stdio.h>

#include "normal/tictactoe_book.h"
#include "misere/tictactoe_book.h"

static void print_cells(const char *name, const int *cells, int count)
{
    int i;
    printf("%s=", name);
    for (i = 0; i < count; i++) {
        printf(i ? ",%d" : "%d", cells[i]);
    }
}

int main(void)
{
    const char *board = "XX.OO....";
    const char *won = "XXXOO...."; /* X completed the top row */
    int moves[TTT_CELLS];
    int misere_moves[MIS_CELLS];
    int value;
    int plies;
    int count = ttt_best_moves(board, moves, TTT_CELLS);
    print_cells("ttt best", moves, count);
    ttt_value(board, &value, &plies);
    printf(" value=%d outcome=%d misere=%d\n", value, ttt_outcome(won), TTT_MISERE);
    count = mis_best_moves(board, misere_moves, MIS_CELLS);
    print_cells("mis best", misere_moves, count);
    mis_value(board, &value, &plies);
    printf(" value=%d outcome=%d misere=%d\n", value, mis_outcome(won), MIS_MISERE);
    return 0;
}

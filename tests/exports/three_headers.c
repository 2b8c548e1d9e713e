/* A program that uses the full book and both strategy tables, written as single headers
 * (tests/test_exports.py): this file includes all three as they are; each implementation is
 * compiled in a C file of its own. Prints the answers for one board:
 *
 *   X . .
 *   . . .    O to move: the book's top tier is the centre alone, O's table plays it,
 *   . . .    and X's table says it is not X's turn.
 */
#include <stdio.h>

#include "tictactoe_book.h"
#include "tictactoe_o.h"
#include "tictactoe_x.h"

int main(void)
{
    const char *board = "X........";
    int move = -1;
    int count = ttt_best_moves(board, &move, 1);
    printf("best=%d:%d o=%d x=%d\n", count, move, ttt_o_move(board), ttt_x_move(board));
    return 0;
}

/* Asks a generated C export's ttt_accept, the redraw bound of ttt_pick (tests/test_export_game.py):
 * this file includes the source itself, so its static functions are in reach. One line in, one
 * out:
 *
 *   DRAW N    "1" if ttt_pick keeps DRAW for a choice among N, "0" if it draws again
 */
#include <stdio.h>

#include "tictactoe_book.c"

int main(void)
{
    unsigned long draw;
    unsigned long n;
    while (scanf("%lu %lu", &draw, &n) == 2) {
        printf("%d\n", ttt_accept((uint32_t)draw, (uint32_t)n));
    }
    return 0;
}

/* Asks a generated strategy export for its move (tests/test_exports.py).
 * Compiled with -DSTRATEGY_HEADER='"tictactoe_x.h"' -DSTRATEGY_MOVE=ttt_x_move (or _o).
 * Reads one board per line; prints the cell to play, or the name of the error. */
#include <stdio.h>
#include <string.h>

#include STRATEGY_HEADER

static const char *error_name(int code)
{
    switch (code) {
    case TTT_ERR_LENGTH:
        return "length";
    case TTT_ERR_CHARACTER:
        return "character";
    case TTT_ERR_COUNTS:
        return "counts";
    case TTT_ERR_UNREACHABLE:
        return "unreachable";
    case TTT_ERR_OVER:
        return "over";
    case TTT_ERR_TURN:
        return "turn";
    case TTT_ERR_NOT_IN_TABLE:
        return "not-in-table";
    default:
        return "unknown";
    }
}

int main(void)
{
    char line[512];
    while (fgets(line, sizeof line, stdin) != NULL) {
        int move;
        line[strcspn(line, "\n")] = '\0';
        move = STRATEGY_MOVE(line);
        if (move >= 0) {
            printf("%d\n", move);
        } else {
            printf("%s\n", error_name(move));
        }
    }
    return 0;
}

// A C++ program using a C export (tests/test_export_game.py): compiled by a C++ compiler and linked
// with the export compiled as C, which it finds only if the header declares its functions
// extern "C". Plays a game, the book's perfect level against itself from a fixed seed, through
// the game-state functions, and prints the boards and the end:
//
//   X . .      X . .      ...      the last line: the outcome's number, the line's length
//   . . .  ->  . O .  ->
//   . . .      . . .
#include <cstdio>
#include <string>

#include "tictactoe_book.h"

int main()
{
    std::string board(TTT_CELLS, '.');
    uint32_t state = 2024;
    char next[TTT_CELLS + 1];
    while (ttt_outcome(board.c_str()) == TTT_IN_PROGRESS) {
        int cell = ttt_choose(board.c_str(), TTT_PERFECT, &state);
        if (cell < 0 || ttt_play(board.c_str(), cell, next) != 0) {
            std::printf("refused: %s\n", ttt_error_name(cell));
            return 1;
        }
        board = next;
        std::printf("%s\n", board.c_str());
    }
    int line[TTT_K];
    std::printf("outcome=%d line=%d name=\"%s\"\n", ttt_outcome(board.c_str()),
                ttt_completed_line(board.c_str(), line), ttt_error_name(TTT_ERR_ILLEGAL_MOVE));
    return 0;
}

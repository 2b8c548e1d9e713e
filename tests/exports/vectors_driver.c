/* Runs the board vectors through a generated C export (tests/test_exports.py).
 *
 * Reads lines "F:BOARD" (F, the mark that moved first; BOARD, any characters up to the end of
 * the line) and prints one line for each, which the test compares with the vector:
 *   key=K sym=S value=V plies=P top=a,b optimal=a,b,c scores=s0,s1,... ('_' for a taken cell)
 *   hard=a,b medium=a,b,c easy=a (the cells each level chooses among: ttt_candidates)
 * or, when the board is refused, the error name of every API call in turn:
 *   error=best,optimal,scores,value,canonical,candidates
 * The line "against" is answered "against=" and TTT_AGAINST, whom the top tiers are ranked to beat.
 * In a game where O moved first the marks are swapped first, as the header says.
 * The seeded vectors: "r SEED N" is answered by N numbers of ttt_random from state SEED
 * ("numbers=a,b,..."); "g LEVEL SEED" by the game ttt_choose plays from the empty board at LEVEL
 * (TTT_PERFECT 0 ... TTT_EASY 3) for both sides from state SEED: "moves=a,b,... state=S", or
 * "error=NAME". */
#include <stdio.h>
#include <string.h>

#include "tictactoe_book.h"

static void print_cells_bare(const int *cells, int count)
{
    int i;
    for (i = 0; i < count; i++) {
        printf(i ? ",%d" : "%d", cells[i]);
    }
}

static void print_cells(const char *name, const int *cells, int count)
{
    printf(" %s=", name);
    print_cells_bare(cells, count);
}

static void numbers(uint32_t state, unsigned long count)
{
    unsigned long i;
    printf("numbers=");
    for (i = 0; i < count; i++) {
        printf(i ? ",%lu" : "%lu", (unsigned long)ttt_random(&state));
    }
    printf("\n");
}

static void game(int level, uint32_t state)
{
    char board[TTT_CELLS + 1];
    int moves[TTT_CELLS];
    int count = 0;
    memset(board, '.', TTT_CELLS);
    board[TTT_CELLS] = '\0';
    while (ttt_outcome(board) == TTT_IN_PROGRESS) {
        int cell = ttt_choose(board, level, &state);
        int error = cell < 0 ? cell : ttt_play(board, cell, board);
        if (error < 0) {
            printf("error=%s\n", ttt_error_name(error));
            return;
        }
        moves[count++] = cell;
    }
    printf("moves=");
    print_cells_bare(moves, count);
    printf(" state=%lu\n", (unsigned long)state);
}

int main(void)
{
    char line[512];
    while (fgets(line, sizeof line, stdin) != NULL) {
        char *board = line + 2;
        int top[TTT_CELLS];
        int optimal[TTT_CELLS];
        int scores[TTT_CELLS];
        char key[TTT_CELLS + 1];
        int results[6];
        int levels[3][TTT_CELLS];
        int counts[3];
        int value = 99;
        int plies = 99;
        int sym = -1;
        int i;
        unsigned long seed = 0;
        unsigned long n = 0;
        int level = 0;
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(line, "against") == 0) {
            printf("against=%s\n", TTT_AGAINST);
            continue;
        }
        if (line[0] == 'r' && sscanf(line + 2, "%lu %lu", &seed, &n) == 2) {
            numbers((uint32_t)seed, n);
            continue;
        }
        if (line[0] == 'g' && sscanf(line + 2, "%d %lu", &level, &seed) == 2) {
            game(level, (uint32_t)seed);
            continue;
        }
        if (line[0] == 'O') {
            for (i = 0; board[i] != '\0'; i++) {
                board[i] = board[i] == 'X' ? 'O' : board[i] == 'O' ? 'X' : board[i];
            }
        }
        results[0] = ttt_best_moves(board, top, TTT_CELLS);
        results[1] = ttt_optimal_moves(board, optimal, TTT_CELLS);
        results[2] = ttt_move_scores(board, scores);
        results[3] = ttt_value(board, &value, &plies);
        results[4] = ttt_canonical(board, key, &sym);
        counts[0] = ttt_candidates(board, TTT_HARD, levels[0], TTT_CELLS);
        counts[1] = ttt_candidates(board, TTT_MEDIUM, levels[1], TTT_CELLS);
        counts[2] = ttt_candidates(board, TTT_EASY, levels[2], TTT_CELLS);
        results[5] = counts[0] < 0 ? counts[0] : counts[1] < 0 ? counts[1] : counts[2];
        if (results[0] < 0 || results[1] < 0 || results[2] < 0 || results[3] < 0 || results[4] < 0
            || results[5] < 0) {
            printf("error=%s,%s,%s,%s,%s,%s\n", ttt_error_name(results[0]), ttt_error_name(results[1]),
                   ttt_error_name(results[2]), ttt_error_name(results[3]), ttt_error_name(results[4]),
                   ttt_error_name(results[5]));
            continue;
        }
        if (ttt_best_moves(board, NULL, 0) != results[0] || ttt_best_moves(board, top, 1) != results[0]) {
            printf("count of the top tier differs with a smaller max\n");
            continue;
        }
        printf("key=%s sym=%d value=%d plies=%d", key, sym, value, plies);
        print_cells("top", top, results[0]);
        print_cells("optimal", optimal, results[1]);
        printf(" scores=");
        for (i = 0; i < TTT_CELLS; i++) {
            if (scores[i] == TTT_OCCUPIED) {
                printf(i ? ",_" : "_");
            } else {
                printf(i ? ",%d" : "%d", scores[i]);
            }
        }
        print_cells("hard", levels[0], counts[0]);
        print_cells("medium", levels[1], counts[1]);
        print_cells("easy", levels[2], counts[2]);
        printf("\n");
    }
    return 0;
}

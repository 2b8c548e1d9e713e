/* Asks a generated C export about the text for people and the game with its history
 * (tests/test_export_notation.py): one line in, one line out.
 *
 *   n                     "size=TTT_GRID_SIZE cells=TTT_CELLS"
 *   g BOARD               ttt_grid: "grid=TEXT", its newlines shown as '/', or "error=NAME"
 *   z SIZE BOARD          ttt_grid into SIZE bytes (of a buffer of '#'): "ret=R first=C", C the
 *                         number of the buffer's first byte afterwards, "length=L" its strlen
 *   m HEX BOARD           ttt_parse_move of the text whose bytes are HEX (two hex digits a byte;
 *                         "-" the empty text): "cell=C" or "error=NAME"
 *   h START OPS           a struct ttt_game from ttt_game_start(START; "-" for NULL), then each of
 *                         OPS (comma-separated: a cell is ttt_game_play, "u" ttt_game_undo):
 *                         "ops=R,R,... board=B start=S moves=a,b,...", R "ok" or the error's
 *                         name for a play, the cell or "none" for an undo; or "error=NAME" when
 *                         the game does not start
 *
 * BOARD is the rest of the line. Written as C89, so that it compiles as C89, C99 and C++. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tictactoe_book.h"

static void grid(const char *board)
{
    char out[TTT_GRID_SIZE];
    int length = ttt_grid(board, out, sizeof out);
    int i;
    if (length < 0) {
        printf("error=%s\n", ttt_error_name(length));
        return;
    }
    if ((size_t)length != strlen(out) || length != TTT_GRID_SIZE - 1) {
        printf("length=%d strlen=%lu\n", length, (unsigned long)strlen(out));
        return;
    }
    for (i = 0; i < length; i++) {
        if (out[i] == '\n') {
            out[i] = '/';
        }
    }
    printf("grid=%s\n", out);
}

static void sized(const char *rest)
{
    char out[TTT_GRID_SIZE + 8];
    char *board;
    long size = strtol(rest, &board, 10);
    int answer;
    memset(out, '#', sizeof out);
    out[sizeof out - 1] = '\0';
    answer = ttt_grid(board + 1, out, (size_t)size);
    printf("ret=%d first=%d length=%lu\n", answer, out[0], (unsigned long)strlen(out));
}

static void parse(const char *rest)
{
    char text[256];
    const char *board = strchr(rest, ' ');
    size_t count = 0;
    int answer;
    if (board == NULL) {
        printf("bad question\n");
        return;
    }
    if (rest[0] != '-') {
        for (; rest + 2 * count < board && count < sizeof text - 1; count++) {
            unsigned int byte;
            sscanf(rest + 2 * count, "%2x", &byte);
            text[count] = (char)byte;
        }
    }
    text[count] = '\0';
    answer = ttt_parse_move(board + 1, text);
    if (answer < 0) {
        printf("error=%s\n", ttt_error_name(answer));
    } else {
        printf("cell=%d\n", answer);
    }
}

static void history(char *rest)
{
    struct ttt_game game;
    char *ops = strchr(rest, ' ');
    char *op;
    int started;
    int first = 1;
    int i;
    if (ops == NULL) {
        printf("bad question\n");
        return;
    }
    *ops++ = '\0';
    started = ttt_game_start(&game, strcmp(rest, "-") == 0 ? NULL : rest);
    if (started != 0) {
        printf("error=%s\n", ttt_error_name(started));
        return;
    }
    printf("ops=");
    for (op = strtok(ops, ","); op != NULL; op = strtok(NULL, ","), first = 0) {
        printf(first ? "" : ",");
        if (strcmp(op, "u") == 0) {
            int cell = ttt_game_undo(&game);
            if (cell < 0) {
                printf("none");
            } else {
                printf("%d", cell);
            }
        } else {
            int error = ttt_game_play(&game, atoi(op));
            printf("%s", error ? ttt_error_name(error) : "ok");
        }
    }
    printf(" board=%s start=%s moves=", game.board, game.start);
    for (i = 0; i < game.count; i++) {
        printf(i ? ",%d" : "%d", game.moves[i]);
    }
    printf("\n");
}

int main(void)
{
    char line[4096];
    while (fgets(line, sizeof line, stdin) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == 'n') {
            printf("size=%d cells=%d\n", TTT_GRID_SIZE, TTT_CELLS);
        } else if (line[0] == 'g' && line[1] == ' ') {
            grid(line + 2);
        } else if (line[0] == 'z' && line[1] == ' ') {
            sized(line + 2);
        } else if (line[0] == 'm' && line[1] == ' ') {
            parse(line + 2);
        } else if (line[0] == 'h' && line[1] == ' ') {
            history(line + 2);
        } else {
            printf("bad question\n");
        }
    }
    return 0;
}

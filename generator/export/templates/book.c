#include <stddef.h>
#include <stdint.h>

${flash_macros}
${rule_tables}
/* The entries, sorted by the canonical keys' codes (ttt_image_code): each canonical key's best
 * score and its top trap-order tier as a bit mask of canonical cells (bit c: cell c). The lower
 * tiers are left out: every move's score follows from its successor's best score, as in the
 * JSON book. */
static const uint${key_bits}_t ttt_keys[TTT_ENTRIES] TTT_FLASH = {
${keys}
};

static const int8_t ttt_bests[TTT_ENTRIES] TTT_FLASH = {
${bests}
};

static const uint16_t ttt_tops[TTT_ENTRIES] TTT_FLASH = {
${tops}
};

${board_functions}
${lookup_function}
/* The score of a move whose successor's best score (the other side's) is `best`. */
static int ttt_one_ply_back(int best)
{
    if (best > 0) {
        return 1 - best;
    }
    if (best < 0) {
        return -best - 1;
    }
    return 0;
}

/* Scores every free cell of a checked board; returns the number of free cells. */
static int ttt_scores_of(const char *board, int scores[TTT_CELLS])
{
    char child[TTT_CELLS];
    char mover = ttt_mover(board);
    int free_cells = 0;
    int cell;
    int i;
    for (cell = 0; cell < TTT_CELLS; cell++) {
        free_cells += board[cell] == '.';
    }
    for (cell = 0; cell < TTT_CELLS; cell++) {
        int sym;
        long found;
        if (board[cell] != '.') {
            scores[cell] = TTT_OCCUPIED;
            continue;
        }
        for (i = 0; i < TTT_CELLS; i++) {
            child[i] = board[i];
        }
        child[cell] = mover;
        if (ttt_owns_line(child, mover)) {
            scores[cell] = TTT_WIN_SCORE;
        } else if (free_cells == 1) {
            scores[cell] = 0;
        } else {
            found = ttt_find(ttt_canonical_code(child, &sym));
            /* a proven book holds every successor; a miss would be a damaged table */
            scores[cell] = found < 0 ? TTT_OCCUPIED : ttt_one_ply_back(TTT_READ_I8(&ttt_bests[found]));
        }
    }
    return free_cells;
}

/* Writes the cells of `mask` (bit c: cell c) in increasing order; returns how many it has. */
static int ttt_write_cells(uint32_t mask, int moves[], int max)
{
    int count = 0;
    int cell;
    for (cell = 0; cell < TTT_CELLS; cell++) {
        if (mask & ((uint32_t)1 << cell)) {
            if (count < max) {
                moves[count] = cell;
            }
            count++;
        }
    }
    return count;
}

/* The table row of `board`'s canonical key (the symmetry onto it in `sym`), or a negative
   error: the board's own, or TTT_ERR_NOT_IN_TABLE. */
static long ttt_row(const char *board, int *sym)
{
    int error = ttt_check(board);
    long found;
    if (error) {
        return error;
    }
    found = ttt_find(ttt_canonical_code(board, sym));
    return found < 0 ? TTT_ERR_NOT_IN_TABLE : found;
}

int ttt_best_moves(const char *board, int moves[], int max)
{
    int sym;
    long found = ttt_row(board, &sym);
    uint32_t top;
    uint32_t mask = 0;
    int cell;
    if (found < 0) {
        return (int)found;
    }
    top = TTT_READ_U16(&ttt_tops[found]);
    for (cell = 0; cell < TTT_CELLS; cell++) {
        if (top & ((uint32_t)1 << cell)) {
            mask |= (uint32_t)1 << TTT_READ_U8(&ttt_perms[sym][cell]);
        }
    }
    return ttt_write_cells(mask, moves, max);
}

int ttt_optimal_moves(const char *board, int moves[], int max)
{
    int scores[TTT_CELLS];
    int error = ttt_check(board);
    int best = TTT_OCCUPIED;
    uint32_t mask = 0;
    int cell;
    if (error) {
        return error;
    }
    ttt_scores_of(board, scores);
    for (cell = 0; cell < TTT_CELLS; cell++) {
        if (scores[cell] != TTT_OCCUPIED && scores[cell] > best) {
            best = scores[cell];
        }
    }
    for (cell = 0; cell < TTT_CELLS; cell++) {
        if (scores[cell] != TTT_OCCUPIED && scores[cell] == best) {
            mask |= (uint32_t)1 << cell;
        }
    }
    return ttt_write_cells(mask, moves, max);
}

int ttt_move_scores(const char *board, int scores[TTT_CELLS])
{
    int error = ttt_check(board);
    if (error) {
        return error;
    }
    return ttt_scores_of(board, scores);
}

int ttt_value(const char *board, int *value, int *plies)
{
    int sym;
    long found = ttt_row(board, &sym);
    int best;
    int cell;
    if (found < 0) {
        return (int)found;
    }
    best = TTT_READ_I8(&ttt_bests[found]);
    if (best > 0) {
        *value = 1;
        *plies = TTT_CELLS + 1 - best;
    } else if (best < 0) {
        *value = -1;
        *plies = TTT_CELLS + 1 + best;
    } else {
        *value = 0;
        *plies = 0;
        for (cell = 0; cell < TTT_CELLS; cell++) {
            *plies += board[cell] == '.';
        }
    }
    return 0;
}

int ttt_canonical(const char *board, char key[TTT_CELLS + 1], int *symmetry)
{
    int error = ttt_check(board);
    uint32_t code;
    int cell;
    if (error) {
        return error;
    }
    code = ttt_canonical_code(board, symmetry);
    key[TTT_CELLS] = '\0';
    for (cell = TTT_CELLS - 1; cell >= 0; cell--) {
        key[cell] = ".OX"[code & 3u];
        code >>= 2;
    }
    return 0;
}

const char *ttt_error_name(int code)
{
    switch (code) {
${error_name_cases}
    default:
        return "";
    }
}

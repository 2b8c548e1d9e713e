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

/* How far ahead each level looks, in plies (tictactoe_book.play.HORIZON; 0: the top tier), by level
 * number (TTT_PERFECT, ...). */
static const uint8_t ttt_horizons[TTT_LEVELS] TTT_FLASH = {${horizons}};

${board_functions}
${lookup_function}
${state_functions}
/* A score as a value (1 win, 0 draw, -1 loss) and plies to the end (a draw: the free cells
 * before the move, `free_cells`). */
static void ttt_decode(int score, int free_cells, int *value, int *plies)
{
    if (score > 0) {
        *value = 1;
        *plies = TTT_CELLS + 1 - score;
    } else if (score < 0) {
        *value = -1;
        *plies = TTT_CELLS + 1 + score;
    } else {
        *value = 0;
        *plies = free_cells;
    }
}

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

/* The top tier of table row `found` as a bit mask of the board's cells, mapped back through
 * symmetry `sym`. */
static uint32_t ttt_top_tier(long found, int sym)
{
    uint32_t top = TTT_READ_U16(&ttt_tops[found]);
    uint32_t mask = 0;
    int cell;
    for (cell = 0; cell < TTT_CELLS; cell++) {
        if (top & ((uint32_t)1 << cell)) {
            mask |= (uint32_t)1 << TTT_READ_U8(&ttt_perms[sym][cell]);
        }
    }
    return mask;
}

int ttt_best_moves(const char *board, int moves[], int max)
{
    int sym;
    long found = ttt_row(board, &sym);
    if (found < 0) {
        return (int)found;
    }
    return ttt_write_cells(ttt_top_tier(found, sym), moves, max);
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
    int free_cells = 0;
    int cell;
    if (found < 0) {
        return (int)found;
    }
    for (cell = 0; cell < TTT_CELLS; cell++) {
        free_cells += board[cell] == '.';
    }
    ttt_decode(TTT_READ_I8(&ttt_bests[found]), free_cells, value, plies);
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
        key[cell] = (code & 3u) == 2u ? 'X' : (code & 3u) == 1u ? 'O' : '.'; /* no string: RAM on AVR */
        code >>= 2;
    }
    return 0;
}

/* The cells a level looking `horizon` plies ahead chooses among on a checked board, as a bit
 * mask (docs/porting.md, "Levels"; tictactoe_book.play.candidates): the fastest wins within sight, else
 * every move that does not lose within sight, else the moves that lose last. */
static uint32_t ttt_level_mask(const char *board, int horizon)
{
    int scores[TTT_CELLS];
    int values[TTT_CELLS];
    int plies[TTT_CELLS];
    int free_cells = ttt_scores_of(board, scores);
    int fastest = TTT_CELLS + 1;
    int slowest = TTT_OCCUPIED;
    uint32_t wins = 0;
    uint32_t safe = 0;
    uint32_t latest = 0;
    int cell;
    for (cell = 0; cell < TTT_CELLS; cell++) {
        if (scores[cell] == TTT_OCCUPIED) {
            continue;
        }
        ttt_decode(scores[cell], free_cells, &values[cell], &plies[cell]);
        if (values[cell] > 0 && plies[cell] <= horizon && plies[cell] < fastest) {
            fastest = plies[cell];
        }
        if (scores[cell] > slowest) {
            slowest = scores[cell];
        }
    }
    for (cell = 0; cell < TTT_CELLS; cell++) {
        uint32_t bit = (uint32_t)1 << cell;
        if (scores[cell] == TTT_OCCUPIED) {
            continue;
        }
        if (values[cell] > 0 && plies[cell] == fastest) {
            wins |= bit;
        }
        if (!(values[cell] < 0 && plies[cell] <= horizon)) {
            safe |= bit;
        }
        if (scores[cell] == slowest) {
            latest |= bit;
        }
    }
    return wins ? wins : safe ? safe : latest;
}

int ttt_candidates(const char *board, int level, int moves[], int max)
{
    int sym;
    int horizon;
    long found = ttt_row(board, &sym);
    if (found < 0) {
        return (int)found;
    }
    if (level < 0 || level >= TTT_LEVELS) {
        return TTT_ERR_LEVEL;
    }
    horizon = TTT_READ_U8(&ttt_horizons[level]);
    if (horizon == 0) {
        return ttt_write_cells(ttt_top_tier(found, sym), moves, max);
    }
    return ttt_write_cells(ttt_level_mask(board, horizon), moves, max);
}

/* 1 if ttt_pick keeps `draw` for a choice among `n` (n >= 1): every draw below the highest
 * 2^32 mod n values, which count does not divide evenly (at most n - 1 of 2^32), so that
 * draw % n makes each choice as likely. */
static int ttt_accept(uint32_t draw, uint32_t n)
{
    uint32_t uneven = (0u - n) % n; /* 2^32 mod n */
    return draw <= 0xFFFFFFFFu - uneven;
}

/* One of `count` choices, each as likely, drawn with ttt_random: a draw ttt_accept refuses is
 * drawn again. */
static int ttt_pick(int count, uint32_t *rng_state)
{
    uint32_t n = (uint32_t)count;
    uint32_t draw;
    do {
        draw = ttt_random(rng_state);
    } while (!ttt_accept(draw, n));
    return (int)(draw % n);
}

int ttt_choose(const char *board, int level, uint32_t *rng_state)
{
    int moves[TTT_CELLS];
    int count = ttt_candidates(board, level, moves, TTT_CELLS);
    if (count < 0) {
        return count;
    }
    if (count == 0) { /* a proven book gives every playable board a move: a damaged table */
        return TTT_ERR_NOT_IN_TABLE;
    }
    return moves[count == 1 ? 0 : ttt_pick(count, rng_state)];
}

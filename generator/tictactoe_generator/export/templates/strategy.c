#include <stddef.h>
#include <stdint.h>

${flash_macros}
${rule_tables}
/* The codes of the positions ${side} faces, sorted, and its move on each canonical board, two
 * moves to a byte (move 2i in the low four bits of byte i). */
static const uint${key_bits}_t ttt_keys[TTT_${side}_POSITIONS] TTT_FLASH = {
${keys}
};

static const uint8_t ttt_moves[(TTT_${side}_POSITIONS + 1) / 2] TTT_FLASH = {
${moves}
};

${board_functions}
${lookup_function}
${state_functions}
int ttt_${lower}_move(const char *board)
{
    int error = ttt_check(board);
    int sym;
    long found;
    unsigned move;
    if (error) {
        return error;
    }
    if (ttt_mover(board) != '${side}') {
        return TTT_ERR_TURN;
    }
    found = ttt_find(ttt_canonical_code(board, &sym));
    if (found < 0) {
        return TTT_ERR_NOT_IN_TABLE;
    }
    move = TTT_READ_U8(&ttt_moves[found / 2]);
    move = found % 2 ? move >> 4 : move & 15u;
    return TTT_READ_U8(&ttt_perms[sym][move]);
}

int ttt_${lower}_choose(const char *board, int level, uint32_t *rng_state)
{
    int error = ttt_check(board);
    (void)rng_state;
    if (error) {
        return error;
    }
    return level == TTT_PERFECT ? ttt_${lower}_move(board) : TTT_ERR_LEVEL;
}

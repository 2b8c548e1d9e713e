#define TTT_READ_KEY(p) ${read_key}(p)

/* The first line (in ttt_lines order) whose every cell holds `mark` on `board`, or -1. */
static int ttt_first_line(const char *board, char mark)
{
    int line;
    int i;
    for (line = 0; line < TTT_LINES; line++) {
        for (i = 0; i < TTT_K && board[TTT_READ_U8(&ttt_lines[line][i])] == mark; i++) {
        }
        if (i == TTT_K) {
            return line;
        }
    }
    return -1;
}

/* 1 if `mark` owns a whole line of `board`. */
static int ttt_owns_line(const char *board, char mark)
{
    return ttt_first_line(board, mark) >= 0;
}

/* The mark to move on a board with legal counts: X when the marks are level. */
static char ttt_mover(const char *board)
{
    int balance = 0;
    int cell;
    for (cell = 0; cell < TTT_CELLS; cell++) {
        balance += (board[cell] == 'X') - (board[cell] == 'O');
    }
    return balance == 0 ? 'X' : 'O';
}

/* 0 for a board with a move to make, else the first failing check's TTT_ERR_* code. */
static int ttt_check(const char *board)
{
    int length = 0;
    int x = 0;
    int o = 0;
    int x_line;
    int o_line;
    int cell;
    int byte = 0;
    if (board == NULL) {
        return TTT_ERR_LENGTH;
    }
    /* cells are characters (UTF-8 code points), not bytes: a byte 10xxxxxx continues one */
    while (length <= TTT_CELLS && board[byte] != '\0') {
        if (((unsigned char)board[byte] & 0xC0) != 0x80) {
            length++;
        }
        byte++;
    }
    if (length != TTT_CELLS) {
        return TTT_ERR_LENGTH;
    }
    /* a character beyond ASCII starts before byte TTT_CELLS: the loop below finds it */
    for (cell = 0; cell < TTT_CELLS; cell++) {
        if (board[cell] == 'X') {
            x++;
        } else if (board[cell] == 'O') {
            o++;
        } else if (board[cell] != '.') {
            return TTT_ERR_CHARACTER;
        }
    }
    if (x - o != 0 && x - o != 1) {
        return TTT_ERR_COUNTS;
    }
    x_line = ttt_owns_line(board, 'X');
    o_line = ttt_owns_line(board, 'O');
    /* the mark that moved last is X when it has more marks */
    if ((x_line && o_line) || (x_line && x == o) || (o_line && x > o)) {
        return TTT_ERR_UNREACHABLE;
    }
    if (x_line || o_line || x + o == TTT_CELLS) {
        return TTT_ERR_OVER;
    }
    return 0;
}

/* The code of the board's image under symmetry s, as the Python reader computes it
 * (player/game.py, BoardCodes): the board read in base 4, first cell most significant, two bits
 * a cell, '.' 0, 'O' 1, 'X' 2, so that codes compare as the board strings do. */
static uint32_t ttt_image_code(const char *board, int s)
{
    uint32_t code = 0;
    int i;
    for (i = 0; i < TTT_CELLS; i++) {
        char mark = board[TTT_READ_U8(&ttt_perms[s][i])];
        code = code << 2 | (mark == 'X' ? 2u : mark == 'O' ? 1u : 0u);
    }
    return code;
}

/* The smallest image's code, and in *symmetry the first symmetry giving it. */
static uint32_t ttt_canonical_code(const char *board, int *symmetry)
{
    uint32_t best = ttt_image_code(board, 0);
    int s;
    *symmetry = 0;
    for (s = 1; s < TTT_SYMMETRIES; s++) {
        uint32_t code = ttt_image_code(board, s);
        if (code < best) {
            best = code;
            *symmetry = s;
        }
    }
    return best;
}

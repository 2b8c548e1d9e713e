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

/* The characters (UTF-8 code points) of `board`, counted up to one past TTT_CELLS; -1 if
 * those bytes are not UTF-8 (a stray or missing continuation byte, an overlong form, a
 * surrogate, a code point above U+10FFFF): such a string has no length in characters, and a
 * board of the wrong length is refused with TTT_ERR_LENGTH, as Python refuses the bytes. */
static int ttt_length(const char *board)
{
    const unsigned char *byte = (const unsigned char *)board;
    int length = 0;
    while (length <= TTT_CELLS && *byte != '\0') {
        unsigned long point = *byte++;
        unsigned long least;
        int more;
        if (point < 0x80) {
            more = 0;
            least = 0;
        } else if ((point & 0xE0) == 0xC0) {
            more = 1;
            least = 0x80;
            point &= 0x1F;
        } else if ((point & 0xF0) == 0xE0) {
            more = 2;
            least = 0x800;
            point &= 0x0F;
        } else if ((point & 0xF8) == 0xF0) {
            more = 3;
            least = 0x10000;
            point &= 0x07;
        } else {
            return -1;
        }
        for (; more > 0; more--, byte++) {
            if ((*byte & 0xC0) != 0x80) { /* the string's end too: a sequence cut short */
                return -1;
            }
            point = point << 6 | (*byte & 0x3Fu);
        }
        if (point < least || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF)) {
            return -1;
        }
        length++;
    }
    return length;
}

/* 0 for a board with a move to make, else the first failing check's TTT_ERR_* code. */
static int ttt_check(const char *board)
{
    int x = 0;
    int o = 0;
    int x_line;
    int o_line;
    int cell;
    if (board == NULL || ttt_length(board) != TTT_CELLS) {
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
 * (player/tictactoe_book/game.py, BoardCodes): the board read in base 4, first cell most significant, two bits
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

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

/* 0 for a board of a game, finished or not, else its first failing check's TTT_ERR_* code:
 * every check but the last, TTT_ERR_OVER, which only says the game is over. */
static int ttt_position_error(const char *board)
{
    int error = ttt_check(board);
    return error == TTT_ERR_OVER ? 0 : error;
}

int ${api}outcome(const char *board)
{
    int error = ttt_position_error(board);
    int cell;
    if (error) {
        return error;
    }
    /* completing a line wins; under misère it loses, and the other side wins */
    if (ttt_owns_line(board, 'X')) {
        return TTT_MISERE ? TTT_O_WINS : TTT_X_WINS;
    }
    if (ttt_owns_line(board, 'O')) {
        return TTT_MISERE ? TTT_X_WINS : TTT_O_WINS;
    }
    for (cell = 0; cell < TTT_CELLS; cell++) {
        if (board[cell] == '.') {
            return TTT_IN_PROGRESS;
        }
    }
    return TTT_DRAW;
}

int ${api}turn(const char *board)
{
    int error = ttt_position_error(board);
    return error ? error : ttt_mover(board);
}

int ${api}completed_line(const char *board, int cells[TTT_K])
{
    int error = ttt_position_error(board);
    int line;
    int i;
    if (error) {
        return error;
    }
    line = ttt_first_line(board, 'X');
    if (line < 0) {
        line = ttt_first_line(board, 'O');
    }
    if (line < 0) {
        return 0;
    }
    for (i = 0; i < TTT_K; i++) {
        cells[i] = TTT_READ_U8(&ttt_lines[line][i]);
    }
    return TTT_K;
}

int ${api}legal_moves(const char *board, int moves[], int max)
{
    int error = ttt_check(board);
    uint32_t free_cells = 0;
    int cell;
    if (error) {
        return error == TTT_ERR_OVER ? 0 : error;
    }
    for (cell = 0; cell < TTT_CELLS; cell++) {
        if (board[cell] == '.') {
            free_cells |= (uint32_t)1 << cell;
        }
    }
    return ttt_write_cells(free_cells, moves, max);
}

int ${api}play(const char *board, int cell, char out[TTT_CELLS + 1])
{
    int error = ttt_check(board);
    char mover;
    int i;
    if (error) {
        return error;
    }
    if (cell < 0 || cell >= TTT_CELLS || board[cell] != '.') {
        return TTT_ERR_ILLEGAL_MOVE;
    }
    mover = ttt_mover(board);
    for (i = 0; i < TTT_CELLS; i++) { /* out may be board itself */
        out[i] = board[i];
    }
    out[cell] = mover;
    out[TTT_CELLS] = '\0';
    return 0;
}

/* mulberry32, by Tommy Ettinger (public domain): a 32-bit state, any value a valid seed, each
 * call adding 0x6D2B79F5 (a Weyl sequence, period 2^32) and mixing the sum into the output. */
uint32_t ${api}random(uint32_t *state)
{
    uint32_t z = *state += 0x6D2B79F5u;
    z = (z ^ (z >> 15)) * (z | 1u);
    z ^= z + (z ^ (z >> 7)) * (z | 61u);
    return z ^ (z >> 14);
}

/* The errors' names (${api}error_name), one after the other from TTT_ERR_LENGTH's down, each
 * ending in a NUL; the array's own NUL after them is "", the name of any other number. One
 * array, in flash on AVR (where a string literal is copied into RAM at start-up). */
static const char ttt_error_names[] TTT_FLASH =
${error_names}

const char *${api}error_name(int code)
{
    const char *none = ttt_error_names + sizeof ttt_error_names - 1;
    const char *name = code < 0 ? ttt_error_names : none;
    for (; code < -1 && name != none; code++) {
        while (TTT_READ_U8((const uint8_t *)name) != 0) {
            name++;
        }
        name++;
    }
#if defined(__AVR__)
    {
        /* a pointer into flash is no string to the caller: the name is copied into RAM, into
         * room for the longest name and its NUL, which the next call overwrites */
        static char copy[${name_size}];
        int i = 0;
        while ((copy[i] = (char)TTT_READ_U8((const uint8_t *)name + i)) != '\0') {
            i++;
        }
        return copy;
    }
#else
    return name;
#endif
}

/* The digits of TTT_CELLS: the width of every cell of ttt_grid (its numbers line up on the
 * right, 9 over 13). */
static int ttt_grid_width(void)
{
    int width = 1;
    int top;
    for (top = TTT_CELLS; top >= 10; top /= 10) {
        width++;
    }
    return width;
}

int ${api}grid(const char *board, char *out, size_t size)
{
    int error = ttt_position_error(board);
    int width = ttt_grid_width();
    int length = 0;
    int row;
    int col;
    int i;
    if (error == 0 && size < (size_t)TTT_GRID_SIZE) {
        error = TTT_ERR_SIZE;
    }
    if (error) {
        if (size > 0) {
            out[0] = '\0';
        }
        return error;
    }
    /* no string literal: on AVR it would be copied into RAM at start-up */
    for (row = 0; row < TTT_ROWS; row++) {
        if (row > 0) { /* a rule: "\n" + (width + 2) '-' for each column, joined by '+', "\n" */
            out[length++] = '\n';
            for (col = 0; col < TTT_COLS; col++) {
                if (col > 0) {
                    out[length++] = '+';
                }
                for (i = 0; i < width + 2; i++) {
                    out[length++] = '-';
                }
            }
            out[length++] = '\n';
        }
        for (col = 0; col < TTT_COLS; col++) { /* " " + the cells joined by " | " */
            int cell = row * TTT_COLS + col;
            int number = cell + 1;
            if (col > 0) {
                out[length++] = ' ';
                out[length++] = '|';
            }
            out[length++] = ' ';
            for (i = width - 1; i >= 0; i--) { /* right-aligned: the last digit first */
                char shown = ' ';
                if (board[cell] != '.') {
                    shown = i == width - 1 ? board[cell] : ' ';
                } else if (number > 0 || i == width - 1) {
                    shown = (char)('0' + number % 10);
                    number /= 10;
                }
                out[length + i] = shown;
            }
            length += width;
        }
    }
    out[length] = '\0';
    return length;
}

/* 1 for the characters parse_move skips around a number: space, tab, CR, LF. */
static int ttt_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int ${api}parse_move(const char *board, const char *text)
{
    int error = ttt_position_error(board);
    int number = 0; /* held at TTT_CELLS + 1 once past the board */
    int digits = 0;
    if (error) {
        return error;
    }
    if (text == NULL) {
        return TTT_ERR_NOT_A_NUMBER;
    }
    while (ttt_is_space(*text)) {
        text++;
    }
    for (; *text >= '0' && *text <= '9'; text++, digits++) {
        number = number * 10 + (*text - '0');
        if (number > TTT_CELLS) {
            number = TTT_CELLS + 1;
        }
    }
    while (ttt_is_space(*text)) {
        text++;
    }
    if (*text != '\0' || digits < 1 || digits > 16) {
        return TTT_ERR_NOT_A_NUMBER;
    }
    if (number < 1 || number > TTT_CELLS) {
        return TTT_ERR_ILLEGAL_MOVE;
    }
    if (ttt_check(board) == TTT_ERR_OVER) {
        return TTT_ERR_OVER;
    }
    return board[number - 1] == '.' ? number - 1 : TTT_ERR_ILLEGAL_MOVE;
}

int ${api}game_start(struct ${api}game *game, const char *board)
{
    int error = board == NULL ? 0 : ttt_position_error(board);
    int cell;
    if (error) {
        return error;
    }
    for (cell = 0; cell < TTT_CELLS; cell++) {
        game->start[cell] = game->board[cell] = board == NULL ? '.' : board[cell];
    }
    game->start[TTT_CELLS] = game->board[TTT_CELLS] = '\0';
    game->count = 0;
    return 0;
}

int ${api}game_play(struct ${api}game *game, int cell)
{
    int error = ${api}play(game->board, cell, game->board); /* writes nothing on an error */
    if (error) {
        return error;
    }
    game->moves[game->count++] = cell;
    return 0;
}

int ${api}game_undo(struct ${api}game *game)
{
    int cell;
    if (game->count == 0) {
        return -1;
    }
    cell = game->moves[--game->count];
    game->board[cell] = '.';
    return cell;
}

/* The full book playing on a microcontroller (tests/test_export_avr.py): compiled with avr-gcc
 * for an ATmega328P and run in simavr, its lines written to the UART; compiled with gcc for the
 * host, to stdout. Both must print the same lines:
 *
 *   names=NAME|NAME|...   ttt_error_name of 1, 0, -1, ... -12 (the names read from flash on AVR)
 *   L S MOVES OUTCOME     a game at level L (TTT_PERFECT 0, ...) for both sides from state S:
 *                         the cells played, then ttt_outcome of the last board, then the error
 *                         name of one more move ("over")
 *
 * Each line ends with '|', since simavr shows the newline after it as '.'. */
#include "tictactoe_book.h"

#if defined(__AVR__)
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

static void put(char c)
{
    while (!(UCSR0A & (1 << UDRE0))) {
    }
    UDR0 = (uint8_t)c;
}
#else
#include <stdio.h>

static void put(char c)
{
    putchar(c);
}
#endif

static void say(const char *text)
{
    while (*text) {
        put(*text++);
    }
}

static void number(int n)
{
    char digits[8];
    int count = 0;
    if (n < 0) {
        put('-');
        n = -n;
    }
    do {
        digits[count++] = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0);
    while (count > 0) {
        put(digits[--count]);
    }
}

static void game(int level, uint32_t seed)
{
    char board[TTT_CELLS + 1];
    uint32_t state = seed;
    int cell;
    for (cell = 0; cell < TTT_CELLS; cell++) {
        board[cell] = '.';
    }
    board[TTT_CELLS] = '\0';
    number(level);
    put(' ');
    number((int)seed);
    put(' ');
    while (ttt_outcome(board) == TTT_IN_PROGRESS) {
        cell = ttt_choose(board, level, &state);
        if (cell < 0 || ttt_play(board, cell, board) != 0) {
            say("failed");
            break;
        }
        number(cell);
    }
    put(' ');
    number(ttt_outcome(board));
    put(' ');
    say(ttt_error_name(ttt_play(board, 0, board)));
    say("|\n");
}

int main(void)
{
    int code;
    int level;
    int seed;
#if defined(__AVR__)
    UCSR0B = 1 << TXEN0;
#endif
    say("names=");
    for (code = 1; code >= -12; code--) {
        say(ttt_error_name(code));
        put('|');
    }
    put('\n');
    for (level = 0; level < TTT_LEVELS; level++) {
        for (seed = 1; seed <= 8; seed++) {
            game(level, (uint32_t)seed);
        }
    }
#if defined(__AVR__)
    cli(); /* simavr stops on a sleep with interrupts off */
    sleep_enable();
    sleep_cpu();
#endif
    return 0;
}

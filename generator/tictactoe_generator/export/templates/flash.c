/* On AVR the tables live in flash and are read with pgm_read_*; elsewhere they are plain
 * const arrays. Every read of a table goes through these macros. */
#if defined(__AVR__)
#include <avr/pgmspace.h>
#define TTT_FLASH PROGMEM
#define TTT_READ_U8(p) pgm_read_byte(p)
#define TTT_READ_U16(p) pgm_read_word(p)
#define TTT_READ_U32(p) pgm_read_dword(p)
#else
#define TTT_FLASH
#define TTT_READ_U8(p) (*(p))
#define TTT_READ_U16(p) (*(p))
#define TTT_READ_U32(p) (*(p))
#endif
#define TTT_READ_I8(p) ((int8_t)TTT_READ_U8((const uint8_t *)(p)))

/* ${header}, a single header (stb style). Include it wherever its functions are called; in
 * exactly one C file of the program, define ${macro} first:
 *
 *     #define ${macro}
 *     #include "${header}"
 *
 * That file compiles the tables and the functions; everywhere else the header only declares
 * them. Each export's implementation needs a C file of its own (their static names are alike).
 */
${declarations}
#if defined(${macro}) && !defined(${macro}_DONE)
#define ${macro}_DONE

#ifdef TTT_IMPLEMENTATION_IN_THIS_FILE
#error "only one TICTACTOE_*_IMPLEMENTATION per C file: give each export a C file of its own"
#endif
#define TTT_IMPLEMENTATION_IN_THIS_FILE

${implementation}
#endif /* ${macro} */

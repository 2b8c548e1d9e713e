/* The index of `code` in ${keys} (binary search), or -1. */
static long ttt_find(uint32_t code)
{
    long low = 0;
    long high = (long)${count} - 1;
    while (low <= high) {
        long middle = low + (high - low) / 2;
        uint32_t key = TTT_READ_KEY(&${keys}[middle]);
        if (key == code) {
            return middle;
        }
        if (key < code) {
            low = middle + 1;
        } else {
            high = middle - 1;
        }
    }
    return -1;
}

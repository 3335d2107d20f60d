/* Spins forever: a `step over` of its loop never ends, and `pause` has to interrupt it. */
int main(void) {
    volatile unsigned long k = 0;
    for (;;)
        k++; /* marker: spin */
}

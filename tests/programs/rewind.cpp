// A loop whose earlier turn wrote a bad value into a vector's element, found going back (tests/e2e/test_reverse.py).
#include <cstdio>
#include <vector>

struct Gauge {
    int level;
};

static void tick(std::vector<Gauge> &gauges, int turn) {
    gauges[turn % 3].level += turn;  // marker: tick
    if (turn == 4)
        gauges[1].level = -100;  // marker: bad write
}

int main() {
    std::vector<Gauge> gauges(3, Gauge{0});
    for (int turn = 0; turn < 7; turn++)
        tick(gauges, turn);  // marker: loop
    int sum = 0;  // marker: after
    for (const Gauge &g : gauges)
        sum += g.level;
    std::printf("sum=%d\n", sum);
    return 0;
}

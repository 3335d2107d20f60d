// An inventory whose count is kept in a struct member and a std::vector element: for watches in C++.
#include <cstdio>
#include <vector>

struct Stock {
    int count = 0;
    std::vector<int> bins = std::vector<int>(3, 0);

    void add(int bin, int amount) {
        bins[bin] += amount; // marker: bin
        count += amount; // marker: count
    }
};

int main() {
    Stock stock;
    stock.add(0, 4); // marker: start
    stock.add(2, 5);
    stock.bins[2] = 1; // marker: reset
    std::printf("%d %d\n", stock.count, stock.bins[2]);
    return 0;
}

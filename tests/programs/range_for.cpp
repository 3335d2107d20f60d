// A range-for that calls the program's own function: a step in goes to it, over the iterator's operators.
#include <vector>

static int price(int units) {
    return units * 2; // marker: price
}

int main() {
    std::vector<int> units{1, 2, 3};
    int total = 0;
    for (int each : units) // marker: loop
        total += price(each); // marker: call
    return total - 12;
}

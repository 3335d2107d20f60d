// A small ledger: balances in a std::map, checked with assert before a report is printed.
#include <cassert>
#include <cstdio>
#include <map>
#include <string>

static int total(const std::map<std::string, int> &ages) {
    int sum = 0;
    for (const auto &entry : ages)
        sum += entry.second;
    return sum; // marker: total
}

static void check(const std::map<std::string, int> &ages, int expected) {
    int got = total(ages);
    printf("checking %d accounts\n", (int)ages.size());
    assert(got == expected); // marker: assert
}

int main() {
    std::map<std::string, int> ages{{"alice", 31}, {"bob", 42}};
    printf("ledger opened\n"); // marker: opened
    int *missing = nullptr;
    check(ages, 73);
    check(ages, 70);
    return missing == nullptr ? 0 : 1;
}

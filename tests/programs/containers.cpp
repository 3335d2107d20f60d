// The standard containers a C++ program keeps its data in.
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

struct Order {
    std::string customer;
    std::vector<double> lines;
};

int main() {
    std::vector<std::string> names = {"alice", "bob", "carol"};
    std::unordered_map<std::string, int> ages = {{"alice", 31}, {"bob", 42}};
    std::map<std::string, int> scores = {{"alice", 7}, {"bob", 9}};
    Order order{"Ada", {9.5, 10.25}};
    std::printf("%zu %zu %zu %zu\n", names.size(), ages.size(), scores.size(), order.lines.size()); // marker: filled
    return 0;
}

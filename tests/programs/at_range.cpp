// An index past the end through .at(): the C++ library throws, nothing catches it, and the program aborts
// deep in libstdc++ (std::vector::_M_range_check, in a header that is on this machine).
#include <cstdio>
#include <vector>

int pick(const std::vector<int>& values, int index) {
    return values.at(index); // marker: at
}

int main() {
    std::vector<int> values{1, 2, 3};
    std::printf("%d\n", pick(values, 5));
    return 0;
}

// A function template called with a container of containers: its frame's name spells every argument out.
#include <map>
#include <string>
#include <vector>

using Index = std::map<std::string, std::vector<std::pair<std::string, std::map<std::string, int>>>>;

template <typename Container, typename Key>
int count_in(const Container& container, const Key& key) {
    int found = static_cast<int>(container.count(key));  // marker: counted
    return found;
}

int main() {
    Index index;
    index["a"].push_back({"b", {{"c", 1}}});
    return count_in(index, std::string("a")) - 1;
}

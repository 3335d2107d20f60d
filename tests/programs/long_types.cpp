// A C++ container of containers: gdb spells its type out in full, nearly 10,000 characters.
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

using Handlers = std::unordered_map<std::string, std::vector<std::function<int(std::string, std::vector<int>)>>>;
using Registry = std::map<std::string, std::vector<std::pair<std::string, Handlers>>>;

int main() {
    std::vector<Registry> registries(1);  // a template over the alias: gdb spells out its whole type
    registries[0]["a"].push_back({"b", {}});  // marker: first
    registries.push_back(registries[0]);
    return static_cast<int>(registries.size()) - 2;  // marker: filled
}

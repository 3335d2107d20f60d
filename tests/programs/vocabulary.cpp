// C++'s vocabulary types as a program holds them, for what a debugger shows of each: std::optional, std::variant,
// std::unique_ptr and std::shared_ptr (issue 36 point 5). Eight locals: under gdb each is previewed at a stop.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <variant>

struct Point {
    int x;
    int y;
    std::string label;
};

struct Node {
    int id;
    std::unique_ptr<Node> next;
    std::optional<double> weight;
    std::variant<int, std::string> tag;
    std::shared_ptr<int> empty;
};

int main() {
    std::optional<int> age = 42;
    std::optional<int> none;
    std::optional<std::string> name = std::string("ada");
    std::variant<int, std::string> choice = 7;
    std::unique_ptr<Point> unique = std::make_unique<Point>(Point{1, 2, "u"});
    std::shared_ptr<Point> shared = std::make_shared<Point>(Point{3, 4, "s"});
    std::unique_ptr<int> number = std::make_unique<int>(5);
    Node node{1, std::make_unique<Node>(Node{2, nullptr, std::nullopt, 0, nullptr}), 2.5, std::string("seven"), nullptr};
    std::printf("%d %d %s %d %d\n", *age, unique->x, shared->label.c_str(), *number, node.id); // marker: held
    return shared->y;
}

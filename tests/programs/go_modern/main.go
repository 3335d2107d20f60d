// Go 1.22 and 1.23 features under the debugger: range over an integer, range over a function (an iterator),
// and generic types and functions.
package main

import (
	"fmt"
	"iter"
)

// Stack is a generic type: its values must be readable with their type argument.
type Stack[T any] struct {
	items []T
	name  string
}

func (s *Stack[T]) Push(item T) {
	s.items = append(s.items, item) // marker: push
}

// All yields the stack's items from the top: a range-over-func iterator.
func (s *Stack[T]) All() iter.Seq2[int, T] {
	return func(yield func(int, T) bool) {
		for i := len(s.items) - 1; i >= 0; i-- {
			if !yield(i, s.items[i]) { // marker: yield
				return
			}
		}
	}
}

// Sum is a generic function over numbers.
func Sum[N int | float64](values ...N) N {
	var total N
	for _, v := range values {
		total += v // marker: sum
	}
	return total
}

func main() {
	words := &Stack[string]{name: "words"}
	for i := range 3 { // range over an integer
		words.Push(fmt.Sprint("w", i))
	}
	seen := 0
	for depth, word := range words.All() {
		seen += len(word) // marker: body
		fmt.Println(depth, word)
	}
	fmt.Println(seen, Sum(1, 2, 3), Sum(0.5, 0.25))
}

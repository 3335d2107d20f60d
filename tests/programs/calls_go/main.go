// Calls two levels deep in a loop: stepping in and out moves between frames at every turn.
package main

import "fmt"

//go:noinline
func leaf(x int) int {
	y := x * 2 // marker: leaf
	return y
}

//go:noinline
func middle(a int) int {
	b := leaf(a)
	c := leaf(b) + 1
	return b + c
}

//go:noinline
func top() int {
	total := 0 // marker: top
	for k := 0; k < 100; k++ {
		total += middle(k)
	}
	return total
}

func main() {
	fmt.Println(top())
}

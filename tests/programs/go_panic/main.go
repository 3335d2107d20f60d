// Indexes past the end of a slice: Go panics inside its runtime, three frames below the culprit.
package main

import "fmt"

func at(xs []int, i int) int {
	return xs[i] // marker: index
}

func main() {
	xs := []int{1, 2, 3}
	fmt.Println(at(xs, 5))
}

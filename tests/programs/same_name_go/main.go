// The same name in two frames: `n` in main, and the parameter `n` of the function it calls.
package main

import "fmt"

//go:noinline
func inner(n int) int {
	return n * 2 // marker: inner
}

func main() {
	n := 5
	doubled := inner(n + 1)
	fmt.Println(n, doubled)
}

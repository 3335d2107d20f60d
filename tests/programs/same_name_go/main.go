// The same name in two frames: `n` in main, and the parameter `n` of the function it calls.
package main

import "fmt"

// inner reads n after a call: at a function's first line Go (1.17+, arguments in registers) may still compute
// with the register n arrived in, so a value set there would not be the one used.
//
//go:noinline
func inner(n int) int {
	fmt.Print("")
	return n * 2 // marker: inner
}

func main() {
	n := 5
	doubled := inner(n + 1)
	fmt.Println(n, doubled)
}

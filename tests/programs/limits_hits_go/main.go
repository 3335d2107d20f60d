// Nine passes over seven lines, one for each form of hit condition (tests/e2e/test_limits.py).
package main

import "fmt"

func main() {
	passes := 0
	for i := 1; i < 10; i++ {
		passes += i // marker: plain
		passes += i // marker: equal
		passes += i // marker: at-least
		passes += i // marker: more-than
		passes += i // marker: less-than
		passes += i // marker: at-most
		passes += i // marker: every
	}
	fmt.Println("passes", passes)
}

// Debuggee for bench/languages.py: a long loop, so `step over` can repeat hundreds of times.
package main

import "fmt"

func work(n int64) int64 {
	var total int64 // the benchmark's breakpoint
	var count int64
	var last int64
	for i := int64(0); i < n; i++ {
		total += i
		count += 1
		last = i * 2
	}
	return total + count + last
}

func main() {
	fmt.Println(work(1000000))
}

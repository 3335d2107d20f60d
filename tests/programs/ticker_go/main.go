// Counts forever, one tick per 50 ms, with a second goroutine: a process to attach to.
package main

import (
	"fmt"
	"time"
)

func tick(n int) int {
	return n + 1 // marker: tick
}

func worker(done chan int) {
	total := 0
	for i := 0; i < 1000000; i++ {
		total += i
		time.Sleep(time.Millisecond)
	}
	done <- total
}

func main() {
	done := make(chan int)
	go worker(done)
	count := 0
	fmt.Println("ticking")
	for {
		count = tick(count)
		time.Sleep(50 * time.Millisecond)
	}
}

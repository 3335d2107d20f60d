// A loop that sleeps most of the time: a pause lands in time.Sleep, shown at the loop's Sleep line.
package main

import (
	"fmt"
	"time"
)

func main() {
	turns := 0
	for {
		turns++
		time.Sleep(200 * time.Millisecond) // marker: sleep
		fmt.Println(turns)                 // marker: print
		if turns > 1000 {
			break
		}
	}
}

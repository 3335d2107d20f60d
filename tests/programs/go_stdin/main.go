// Reads lines from stdin until end of file.
package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	lines := 0
	scanner := bufio.NewScanner(os.Stdin)
	for scanner.Scan() {
		lines++
	}
	fmt.Printf("read %d lines\n", lines)
}

// Command app uses the workspace's other module, resolved through go.work (no replace directive).
package main

import (
	"fmt"

	"example.com/units"
)

func main() {
	board := units.Length{Millimetres: 2440, Label: "board"}
	fmt.Println(board.Label, board.Inches()) // marker: print
}

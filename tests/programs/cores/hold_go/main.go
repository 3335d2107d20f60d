// An order held in a long sleep: the tests save a core of it while it sleeps (gcore) and read it under Delve.
package main

import (
	"fmt"
	"time"
)

type order struct {
	items []string
	total int
}

func hold(o *order) {
	fmt.Println("holding", len(o.items))
	time.Sleep(time.Hour) // marker: hold
}

func main() {
	o := &order{items: []string{"tea", "cake"}, total: 7}
	hold(o)
}

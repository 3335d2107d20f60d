// A ledger shaped like real code: accounts behind pointers, updated in a loop.
package main

import (
	"fmt"
	"time"
)

type Account struct {
	Owner   string
	Balance int
	Limits  *Limits
}

type Limits struct {
	Daily int
}

func deposit(root *Account, amount int) {
	root.Balance += amount // marker: deposit
}

func main() {
	root := &Account{Owner: "Ada", Limits: &Limits{Daily: 100}}
	time.Sleep(time.Second) // opening the books
	for i := 1; i <= 3; i++ { // marker: loop
		deposit(root, i*10)
	}
	fmt.Printf("balance=%d daily=%d\n", root.Balance, root.Limits.Daily)
}
